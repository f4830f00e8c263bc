import { LogOut, UserRound } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { useAuth } from "../../features/auth/hooks/use-auth.ts";
import { NotificationBell } from "../../features/notifications/components/notification-bell.tsx";
import { MobileNav } from "./mobile-nav.tsx";

function Avatar({ url }: { url: string | null }) {
  const [broken, setBroken] = useState(false);
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        onError={() => setBroken(true)}
        className="size-9 shrink-0 rounded-full object-cover ring-1 ring-slate-200"
      />
    );
  }
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
      <UserRound className="size-5" aria-hidden="true" />
    </span>
  );
}

// The profile form (and its form library) loads on first opening, keeping it out of the signed-in shell's bundle.
const ProfileDialog = lazy(() =>
  import("../../features/auth/components/profile-dialog.tsx").then((m) => ({ default: m.ProfileDialog })),
);

export function TopBar() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [profileOpen, setProfileOpen] = useState(false);
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
      <NotificationBell />
      <button
        type="button"
        onClick={() => setProfileOpen(true)}
        className="flex min-w-0 items-center gap-3 rounded-md p-1 text-left hover:bg-slate-100"
      >
        {/* The image's key makes a new URL get a fresh chance to load after a broken one. */}
        <Avatar key={user?.avatarUrl ?? "none"} url={user?.avatarUrl ?? null} />
        <span className="sr-only sm:hidden">Profile: {fullName}</span>
        <span className="hidden min-w-0 sm:block">
          <span className="block truncate text-sm font-medium text-slate-900">{fullName}</span>
          <span className="block truncate text-xs text-slate-500">{user?.organizationName}</span>
        </span>
      </button>
      <Button variant="ghost" onClick={signOut} pending={signingOut} aria-label="Sign out">
        {!signingOut && <LogOut className="size-4" aria-hidden="true" />}
        <span className="hidden sm:inline">Sign out</span>
      </Button>
      {profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
        </Suspense>
      )}
    </header>
  );
}
