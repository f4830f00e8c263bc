import { Link, useSearchParams } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { AuthShell } from "../components/auth-shell.tsx";
import { RequestNewLink, ResetPasswordForm } from "../components/reset-password-form.tsx";

export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");

  return (
    <AuthShell
      title="Choose a new password"
      footer={
        <Link to="/login" className="font-medium text-indigo-600 hover:text-indigo-500">
          Back to sign in
        </Link>
      }
    >
      {token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <Alert>
          <p>This reset link is missing its token. Open the link from the email again, or ask for a new one.</p>
          <p className="mt-1">
            <RequestNewLink />
          </p>
        </Alert>
      )}
    </AuthShell>
  );
}
