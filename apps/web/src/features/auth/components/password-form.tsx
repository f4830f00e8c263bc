import { passwordField } from "@cove/contract/auth.ts";
import { toast } from "sonner";
import { z } from "zod";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { NewPasswordFields, withPasswordConfirmation } from "./account-fields.tsx";

const passwordForm = withPasswordConfirmation(
  z.object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: passwordField,
    confirmPassword: z.string(),
  }),
  "newPassword",
);

/** A new password needs the current one; every other session of the user ends, this one stays. */
export function PasswordForm() {
  const { updateProfile } = useAuth();
  const {
    field,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = useContractForm(passwordForm, { currentPassword: "", newPassword: "", confirmPassword: "" });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await updateProfile({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast.success("Password changed", { description: "You were signed out everywhere else." });
      reset();
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["currentPassword", "newPassword"])) {
        toastError(error, "Profile update failed");
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password" className="space-y-4">
      <PasswordField label="Current password" autoComplete="current-password" {...field("currentPassword")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordFields label="New password" field={field} name="newPassword" />
      </div>
      <FormActions pending={isSubmitting}>{isSubmitting ? "Changing…" : "Change password"}</FormActions>
    </form>
  );
}
