import { passwordField } from "@cove/contract/auth.ts";
import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { resetPasswordRequest, resetTokenCheckRequest } from "../api/auth.api.ts";
import { NewPasswordFields, withPasswordConfirmation } from "./account-fields.tsx";

const FALLBACK = "Password reset failed";

const resetForm = withPasswordConfirmation(z.object({ password: passwordField, confirmPassword: z.string() }));

export function RequestNewLink() {
  return (
    <Link to="/login?forgot=1" className="font-medium underline underline-offset-2">
      Request a new reset link
    </Link>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<{ text: string; invalidToken: boolean } | null>(null);
  // The link is checked as the page opens, so a used or expired one says so before anything is typed. If the check
  // gets no answer, the form shows: setting the password will say what is wrong.
  const [checking, setChecking] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    setChecking(true);
    setFailure(null);
    resetTokenCheckRequest(token, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === "INVALID_TOKEN") {
          setFailure({ text: error.message, invalidToken: true });
        }
      })
      .finally(() => {
        if (!controller.signal.aborted) setChecking(false);
      });
    return () => controller.abort();
  }, [token]);
  const {
    field,
    handleSubmit,
    formState: { isSubmitting },
  } = useContractForm(resetForm, { password: "", confirmPassword: "" });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { message } = await resetPasswordRequest({ token, password: values.password });
      toast.success(message);
      navigate("/login", { replace: true });
    } catch (error) {
      setFailure({
        text: errorText(error, FALLBACK),
        invalidToken: error instanceof ApiError && error.code === "INVALID_TOKEN",
      });
    }
  });

  if (checking) {
    return <Loading label="Checking your reset link" className="py-8 text-indigo-600" />;
  }

  // A used or expired link cannot succeed however the form is filled in: say so, and offer only what helps.
  if (failure?.invalidToken) {
    return (
      <Alert>
        <p>{failure.text}</p>
        <p className="mt-1">
          <RequestNewLink />
        </p>
      </Alert>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Choose a new password">
      {failure && (
        <Alert>
          <p>{failure.text}</p>
        </Alert>
      )}
      <NewPasswordFields label="New password" field={field} name="password" />
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
