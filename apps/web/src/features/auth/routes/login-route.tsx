import { Link, useSearchParams } from "react-router";
import { AuthShell } from "../components/auth-shell.tsx";
import { ForgotPasswordForm } from "../components/forgot-password-form.tsx";
import { LoginForm } from "../components/login-form.tsx";

export function LoginRoute() {
  // The forgot-password panel is part of the URL so the back button and "request a new link" links work.
  const [searchParams, setSearchParams] = useSearchParams();
  const forgot = searchParams.get("forgot") === "1";

  if (forgot) {
    return (
      <AuthShell title="Forgot your password?">
        <ForgotPasswordForm onBack={() => setSearchParams({}, { replace: true })} />
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Sign in to Cove"
      subtitle="Welcome back. Sign in to your help desk."
      footer={
        <>
          New to Cove?{" "}
          <Link to="/register" className="font-medium text-indigo-600 hover:text-indigo-500">
            Start your free trial
          </Link>
        </>
      }
    >
      <LoginForm onForgotPassword={() => setSearchParams({ forgot: "1" })} />
    </AuthShell>
  );
}
