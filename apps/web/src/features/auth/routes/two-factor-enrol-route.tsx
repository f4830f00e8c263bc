import { Navigate, useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth.ts";
import { SessionQueryProvider } from "../../../lib/query-provider.tsx";
import { AuthShell } from "../components/auth-shell.tsx";
import { TwoFactorSetup } from "../components/two-factor-setup.tsx";

/**
 * /two-factor-setup: where a member whose organization requires two-factor sign-in, and who has not set it up, is
 * taken right after their password. Nothing else of the app opens (the API refuses it too) until it is on.
 */
export function TwoFactorEnrolRoute() {
  const { user, token, refreshUser, logout } = useAuth();
  const navigate = useNavigate();
  // Set up already (the recovery codes were seen before refreshUser), or not asked of this member: nothing to do here.
  if (user?.twoFactorEnabled) return <Navigate to="/dashboard" replace />;
  if (user && !user.twoFactorRequired) return <Navigate to="/profile" replace />;
  return (
    <AuthShell
      title="Set up two-factor sign-in"
      subtitle={`${user?.organizationName ?? "Your organization"} requires a code from an authenticator app each time you sign in.`}
      footer={
        <button
          type="button"
          onClick={() => void logout()}
          className="font-medium text-indigo-600 underline-offset-2 hover:text-indigo-500 hover:underline"
        >
          Sign out
        </button>
      }
    >
      {/* Outside the app's layout, so the set-up's requests get a query client of their own (one per session). */}
      <SessionQueryProvider key={token ?? "none"}>
        <TwoFactorSetup
          doneLabel="Continue to Cove"
          onDone={async () => {
            await refreshUser().catch(() => {});
            navigate("/dashboard", { replace: true });
          }}
        />
      </SessionQueryProvider>
    </AuthShell>
  );
}
