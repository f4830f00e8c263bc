import { type InvitationAnswer, passwordField, requiredText } from "@cove/contract/auth.ts";
import { type ReactNode, useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { invitationRequest } from "../api/auth.api.ts";
import { NameFields, NewPasswordFields, withPasswordConfirmation } from "../components/account-fields.tsx";
import { AuthShell } from "../components/auth-shell.tsx";

const FALLBACK = "Could not accept the invitation";

const acceptForm = withPasswordConfirmation(
  z.object({
    firstName: requiredText("First name", 80),
    lastName: requiredText("Last name", 80),
    password: passwordField,
    confirmPassword: z.string(),
  }),
);

/** A link that can never work again (used, expired, revoked or mangled): say which, and what to do. */
function DeadLink({ message, used }: { message: string; used: boolean }) {
  return (
    <div className="space-y-4">
      <Alert>
        <p>{message}</p>
      </Alert>
      {used && (
        <Link to="/login" className="inline-block font-medium text-indigo-600 hover:text-indigo-500">
          Go to sign in
        </Link>
      )}
    </div>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: InvitationAnswer }) {
  const { acceptInvite } = useAuth();
  const navigate = useNavigate();
  const {
    field,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useContractForm(acceptForm, {
    firstName: invitation.first_name,
    lastName: invitation.last_name,
    password: "",
    confirmPassword: "",
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await acceptInvite({ token, firstName: values.firstName, lastName: values.lastName, password: values.password });
      toast.success(`Welcome to ${invitation.organization_name}!`);
      navigate("/dashboard", { replace: true });
    } catch (error) {
      // A field's problem shows by the field; anything else as a toast.
      if (!applyFieldErrors(error, setError, ["firstName", "lastName", "password"])) toastError(error, FALLBACK);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Accept the invitation" className="space-y-5">
      <p className="text-sm text-slate-600">
        You are joining as {invitation.role === "admin" ? "an admin" : "an agent"}. You will sign in with{" "}
        <span className="font-medium break-all text-slate-900">{invitation.email}</span>.
      </p>
      <NameFields field={field} />
      <NewPasswordFields field={field} name="password" />
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Joining…" : "Join the team"}
      </Button>
    </form>
  );
}

/** /accept-invite?token=...: the link from the invitation email. */
export function AcceptInviteRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token") ?? "";
  const [invitation, setInvitation] = useState<
    { state: "loading" } | { state: "ready"; data: InvitationAnswer } | { state: "failed"; error: unknown }
  >({ state: "loading" });

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    setInvitation({ state: "loading" });
    invitationRequest(token, controller.signal)
      .then((data) => setInvitation({ state: "ready", data }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setInvitation({ state: "failed", error });
      });
    return () => controller.abort();
  }, [token]);

  const data = invitation.state === "ready" ? invitation.data : null;
  const title = data ? `Join ${data.organization_name} on Cove` : "Accept your invitation";
  let body: ReactNode;
  if (!token) {
    body = (
      <DeadLink message="This invitation link is missing its token. Open the link from the email again." used={false} />
    );
  } else if (invitation.state === "loading") {
    body = <Loading label="Checking your invitation" className="py-8 text-indigo-600" />;
  } else if (invitation.state === "failed") {
    const { error } = invitation;
    body = (
      <DeadLink
        message={errorText(error, "The invitation could not be checked. Try again in a moment.")}
        used={error instanceof ApiError && error.code === "INVITATION_USED"}
      />
    );
  } else {
    body = <AcceptForm token={token} invitation={invitation.data} />;
  }

  return (
    <AuthShell
      title={title}
      subtitle={data ? "Choose your password to join your team." : undefined}
      footer={
        <Link to="/login" className="font-medium text-indigo-600 hover:text-indigo-500">
          Already have an account? Sign in
        </Link>
      }
    >
      {body}
    </AuthShell>
  );
}
