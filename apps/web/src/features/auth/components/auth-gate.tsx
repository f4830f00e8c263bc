import { Navigate, Outlet, useLocation } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { useAuth } from "../hooks/use-auth.ts";

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
  const { status } = useAuth();
  const location = useLocation();
  if (status === "loading") return <FullPageSpinner label="Loading your workspace" />;
  if (status === "guest") {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from } satisfies FromState} />;
  }
  return <Outlet />;
}

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
