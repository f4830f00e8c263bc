import { loginBody } from "@cove/contract/auth.ts";
import { useState } from "react";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { EmailField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { TwoFactorStep } from "./two-factor-step.tsx";

const textLink = "font-medium text-indigo-600 hover:text-indigo-500 underline-offset-2 hover:underline";

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const { login } = useAuth();
  const [serverError, setServerError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const {
    register,
    field,
    handleSubmit,
    formState: { isSubmitting },
  } = useContractForm(loginBody, { email: "", password: "", rememberMe: false });

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      // On success the guest-only gate moves the user on (to /dashboard or where they were heading).
      const signedIn = await login(values);
      if ("challenge" in signedIn) setChallenge(signedIn.challenge);
    } catch (error) {
      // Shown once, above the form (a toast would say it twice).
      setServerError(errorText(error, "Login failed"));
    }
  });

  if (challenge) return <TwoFactorStep challenge={challenge} onRestart={() => setChallenge(null)} />;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Sign in">
      {serverError && <Alert>{serverError}</Alert>}
      <EmailField {...field("email")} />
      <PasswordField label="Password" autoComplete="current-password" {...field("password")} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300 accent-indigo-600"
            {...register("rememberMe")}
          />
          Remember me
        </label>
        <button type="button" onClick={onForgotPassword} className={`${textLink} rounded-sm text-sm`}>
          Forgot your password?
        </button>
      </div>
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-xs text-slate-500">
        By signing in you agree to our{" "}
        <Link to="/terms" className={textLink}>
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/privacy" className={textLink}>
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  );
}
