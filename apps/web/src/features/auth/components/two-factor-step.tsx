import { CODE_MESSAGE, RECOVERY_CODE_MESSAGE, recoveryCodeField, totpCodeField } from "@cove/contract/security.ts";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";

const linkButton =
  "rounded-sm text-sm font-medium text-indigo-600 underline-offset-2 hover:text-indigo-500 hover:underline";

/** Which kind of code is asked for, and the code as typed (checked with the contract's rule for that kind). */
const stepForm = z.object({ recovery: z.boolean(), code: z.string() }).superRefine(({ recovery, code }, check) => {
  const field = recovery ? recoveryCodeField : totpCodeField;
  if (!field.safeParse(code).success) {
    check.addIssue({ code: "custom", path: ["code"], message: recovery ? RECOVERY_CODE_MESSAGE : CODE_MESSAGE });
  }
});

/**
 * The second step of signing in to an account with two-factor sign-in: a code from the authenticator app, or one of
 * the recovery codes. An expired sign-in goes back to the password (onRestart).
 */
export function TwoFactorStep({ challenge, onRestart }: { challenge: string; onRestart: () => void }) {
  const { completeLogin } = useAuth();
  const {
    field,
    watch,
    reset,
    setValue,
    setError,
    submit,
    formState: { errors, isSubmitting: pending },
  } = useContractForm(stepForm, { recovery: false, code: "" });
  const recovery = watch("recovery");
  const serverError = errors.root?.message;

  const onSubmit = submit(
    [],
    // On success the guest-only gate moves the user on, as after a password.
    ({ code }) => completeLogin(recovery ? { challenge, recoveryCode: code } : { challenge, code }),
    (error) => {
      setValue("code", "");
      setError("root", { message: errorText(error, "Sign-in failed") });
    },
  );
  // The other kind of code starts afresh: nothing typed, no message.
  const switchKind = () => reset({ recovery: !recovery, code: "" });

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
        {...field("code")}
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
