import { forgotPasswordBody } from "@cove/contract/auth.ts";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { forgotPasswordRequest } from "../api/auth.api.ts";

const FALLBACK = "Could not send the reset link";

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [result, setResult] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const {
    field,
    handleSubmit,
    formState: { isSubmitting },
  } = useContractForm(forgotPasswordBody, { email: "" });

  const onSubmit = handleSubmit(async (values) => {
    setResult(null);
    try {
      // The server answers the same way whether or not the address has an account, so we just relay its message.
      const { message } = await forgotPasswordRequest(values);
      setResult({ tone: "success", text: message });
    } catch (error) {
      setResult({ tone: "error", text: errorText(error, FALLBACK) });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Reset your password">
      <p className="text-sm text-slate-600">
        Enter the email address you sign in with and we will send you a link to choose a new password.
      </p>
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <EmailField {...field("email")} />
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Sending…" : "Send reset link"}
      </Button>
      <Button type="button" variant="ghost" onClick={onBack} className="w-full">
        Back to sign in
      </Button>
    </form>
  );
}
