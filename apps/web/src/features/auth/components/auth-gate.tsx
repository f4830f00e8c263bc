import { ShieldAlert } from "lucide-react";
import { Link, Navigate, Outlet, useLocation } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { useAuth } from "../../../lib/auth.ts";

interface FromState {
  from: string;
}

/** Where a guest was heading when the gate stopped them; only in-app paths are honoured. */
function intendedPath(state: unknown): string {
  if (typeof state === "object" && state !== null && "from" in state) {
    const from = (state as FromState).from;
    if (typeof from === "string" && from.startsWith("/") && !from.startsWith("//")) return from;
  }
  return "/dashboard";
}

/** Protected routes: spinner while the session is checked, /login (remembering the path) when signed out. */
export function RequireAuth() {
  const { status, user } = useAuth();
  const location = useLocation();
  if (status === "loading") return <FullPageSpinner label="Loading your workspace" />;
  if (status === "guest") {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from } satisfies FromState} />;
  }
  // The organization requires two-factor sign-in of this member, who has not set it up: enrolment first, nothing else.
  if (user?.twoFactorRequired && !user.twoFactorEnabled && location.pathname !== ENROL_PATH) {
    return <Navigate to={ENROL_PATH} replace />;
  }
  return <Outlet />;
}

export const ENROL_PATH = "/two-factor-setup";

/**
 * /login and /register: a signed-in user goes on to where they were heading, else /dashboard. This is also what moves
 * the user on after a successful sign-in or registration, so there is one place that decides where they land.
 */
export function GuestOnly() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === "loading") return <FullPageSpinner />;
  if (status === "authenticated") return <Navigate to={intendedPath(location.state)} replace />;
  return <Outlet />;
}

/** Screens for admins only (docs/product.md, "Roles"): an agent who follows an old link is told why, not shown a 403. */
export function RequireAdmin() {
  const { user } = useAuth();
  if (user?.role === "admin") return <Outlet />;
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <title>Admins only · Cove</title>
      <ShieldAlert className="size-8 text-slate-400" aria-hidden="true" />
      <h1 className="text-lg font-semibold text-slate-900">Only an admin can open this page</h1>
      <p className="max-w-sm text-sm text-slate-600">
        Billing, automation and settings are managed by your team's admins. Ask one of them if something needs changing.
      </p>
      <Link to="/dashboard" className="font-medium text-indigo-600 hover:text-indigo-500">
        Back to the dashboard
      </Link>
    </div>
  );
}
