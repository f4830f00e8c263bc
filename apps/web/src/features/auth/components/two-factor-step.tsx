import { CODE_MESSAGE, RECOVERY_CODE_MESSAGE } from "@cove/contract/security.ts";
import { type FormEvent, useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";

const linkButton =
  "rounded-sm text-sm font-medium text-indigo-600 underline-offset-2 hover:text-indigo-500 hover:underline";

/**
 * The second step of signing in to an account with two-factor sign-in: a code from the authenticator app, or one of
 * the recovery codes. An expired sign-in goes back to the password (onRestart).
 */
export function TwoFactorStep({ challenge, onRestart }: { challenge: string; onRestart: () => void }) {
  const { completeLogin } = useAuth();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const typed = value.replace(/[\s-]/g, "");
    const valid = recovery ? /^[a-z0-9]{12}$/i.test(typed) : /^\d{6}$/.test(typed);
    if (!valid) {
      setFieldError(recovery ? RECOVERY_CODE_MESSAGE : CODE_MESSAGE);
      return;
    }
    setFieldError(undefined);
    setPending(true);
    try {
      // On success the guest-only gate moves the user on, as after a password.
      await completeLogin(recovery ? { challenge, recoveryCode: value } : { challenge, code: value });
    } catch (error) {
      setServerError(errorText(error, "Sign-in failed"));
      setValue("");
    } finally {
      setPending(false);
    }
  };

  const switchKind = () => {
    setRecovery(!recovery);
    setValue("");
    setFieldError(undefined);
    setServerError(null);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Two-factor sign-in">
      <p className="text-sm text-slate-600">
        {recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each code works once."
          : "Open your authenticator app and enter the 6-digit code it shows for Cove."}
      </p>
      {serverError && <Alert>{serverError}</Alert>}
      <TextField
        key={recovery ? "recovery" : "code"}
        label={recovery ? "Recovery code" : "Authentication code"}
        autoComplete="one-time-code"
        inputMode={recovery ? "text" : "numeric"}
        autoFocus
        spellCheck={false}
        autoCapitalize="none"
        maxLength={recovery ? 40 : 20}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={fieldError}
      />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Checking…" : "Verify and sign in"}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button type="button" onClick={switchKind} className={linkButton}>
          {recovery ? "Use a code from your app" : "Use a recovery code"}
        </button>
        <button type="button" onClick={onRestart} className={linkButton}>
          Start over
        </button>
      </div>
    </form>
  );
}
