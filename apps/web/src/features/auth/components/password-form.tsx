import { passwordField } from "@cove/contract/auth.ts";
import { PASSWORD_MIN } from "@cove/contract/constants.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "../../../components/ui/button.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError } from "../../../lib/toast-error.ts";

const passwordForm = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: passwordField,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
    when: ({ value }) =>
      typeof value === "object" && value !== null && "newPassword" in value && "confirmPassword" in value,
  });

/** A new password needs the current one; every other session of the user ends, this one stays. */
export function PasswordForm() {
  const { updateProfile } = useAuth();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(passwordForm),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

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
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register("currentPassword")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          hint={`Must be at least ${PASSWORD_MIN} characters`}
          error={errors.newPassword?.message}
          {...register("newPassword")}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword")}
        />
      </div>
      <div className="flex justify-end">
        <Button type="submit" pending={isSubmitting}>
          {isSubmitting ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
