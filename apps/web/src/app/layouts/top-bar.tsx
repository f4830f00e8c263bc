import { LogOut } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Avatar } from "../../components/ui/avatar.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { NotificationBell } from "../../features/notifications/components/notification-bell.tsx";
import { useAuth } from "../../lib/auth.ts";
import { LiveIndicator } from "./live-indicator.tsx";
import { MobileNav } from "./mobile-nav.tsx";

export function TopBar() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    await logout(); // never throws: the session is gone locally whatever the server said
    navigate("/login", { replace: true });
  }

  const fullName = user ? `${user.firstName} ${user.lastName}` : "";

  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/95 px-3 backdrop-blur sm:gap-3 sm:px-6">
      <MobileNav />
      <Logo className="md:hidden" />
      <div className="flex-1" />
      <LiveIndicator />
      <NotificationBell />
      <Link
        to="/profile"
        className="flex min-w-0 items-center gap-3 rounded-md p-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <Avatar url={user?.avatarUrl ?? null} />
        {/* The link is named by the text it shows (on a phone, where the name is not shown, by the same words). */}
        <span className="sr-only">Your profile: </span>
        <span className="sr-only min-w-0 sm:not-sr-only sm:block">
          <span className="block truncate text-sm font-medium text-slate-900">{fullName}</span>
          <span className="block truncate text-xs text-slate-500">{user?.organizationName}</span>
        </span>
      </Link>
      <Button variant="ghost" onClick={signOut} pending={signingOut} aria-label="Sign out">
        {!signingOut && <LogOut className="size-4" aria-hidden="true" />}
        <span className="hidden sm:inline">Sign out</span>
      </Button>
    </header>
  );
}
