import { Lock } from "lucide-react";
import { Link, useLocation } from "react-router";
import { useAuth } from "../../../lib/auth.ts";
import { useTrialStatus } from "../api/trial.queries.ts";
import { ASK_AN_ADMIN } from "./trial-banner.tsx";

/**
 * On every signed-in page but the dashboard (which has the full banner): a read-only organization says so, and why,
 * before anyone types into a form that would be refused.
 */
export function ReadOnlyNotice() {
  const { data } = useTrialStatus();
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (!data?.access.read_only || pathname === "/dashboard") return null;
  return (
    <div
      role="status"
      className="mb-4 flex flex-col gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2">
        <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{data.access.message}</span>
      </p>
      {user?.role === "admin" ? (
        pathname !== "/billing" && (
          <Link to="/billing" className="shrink-0 font-medium underline">
            Go to Billing
          </Link>
        )
      ) : (
        <span className="shrink-0 font-medium">{ASK_AN_ADMIN}</span>
      )}
    </div>
  );
}
