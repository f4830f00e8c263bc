import { profileBody, type SessionUser } from "@cove/contract/auth.ts";
import type { ReactNode } from "react";
import { toast } from "sonner";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { NameFields } from "../components/account-fields.tsx";
import { AvatarPicker } from "../components/avatar-picker.tsx";
import { PasswordForm } from "../components/password-form.tsx";
import { SessionsCard, TwoFactorCard } from "../components/security-cards.tsx";

function Card({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 mb-5 text-sm text-slate-600">{description}</p>
      {children}
    </section>
  );
}

function NamesForm({ user }: { user: SessionUser }) {
  const { updateProfile } = useAuth();
  const {
    field,
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
    reset,
  } = useContractForm(profileBody, { firstName: user.firstName, lastName: user.lastName });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await updateProfile({ firstName: values.firstName, lastName: values.lastName });
      reset({ firstName: saved.firstName, lastName: saved.lastName });
      toast.success("Profile updated");
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["firstName", "lastName"])) toastError(error, "Profile update failed");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Your name" className="space-y-4">
      <NameFields field={field} />
      <TextField label="Email" value={user.email} readOnly disabled hint="Your sign-in email cannot be changed here." />
      <FormActions pending={isSubmitting} disabled={!isDirty}>
        {isSubmitting ? "Saving…" : "Save changes"}
      </FormActions>
    </form>
  );
}

/** The signed-in user's own profile, reached from the name and picture in the top bar. */
export function ProfileRoute() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        title="Your profile"
        lead={`${user.role === "admin" ? "Admin" : "Agent"} at ${user.organizationName}`}
      />
      <Card title="Picture" description="Shown in the top bar and the team list.">
        <AvatarPicker />
      </Card>
      <Card title="Name" description="How your team and your customers see you.">
        <NamesForm user={user} />
      </Card>
      <Card
        title="Password"
        description="Changing it signs you out on every other device and browser; you stay signed in here."
      >
        <PasswordForm />
      </Card>
      <Card
        title="Two-factor sign-in"
        description="A code from an authenticator app on your phone, asked for after your password each time you sign in."
      >
        <TwoFactorCard />
      </Card>
      <Card
        title="Where you're signed in"
        description="Browsers and devices signed in to your account. Sign out any you do not recognize."
      >
        <SessionsCard />
      </Card>
    </div>
  );
}
