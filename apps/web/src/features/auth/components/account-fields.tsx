import { PASSWORD_MIN } from "@cove/contract/constants.ts";
import type { z } from "zod";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import type { FieldProps } from "../../../lib/contract-form.ts";

/** A form's `field` (useContractForm), for the fields named N (the form may have more). */
interface FormParts<N extends string> {
  field: (name: N) => FieldProps<N>;
}

/**
 * A schema whose new password is typed twice (`field`, then `confirmPassword`): a mismatch shows under the second.
 * Zod skips object refinements while other fields are invalid; `when` has the mismatch show alongside those errors.
 */
export function withPasswordConfirmation<S extends z.ZodType<{ confirmPassword: string }>>(
  schema: S,
  field: "password" | "newPassword" = "password",
) {
  return schema.refine((v) => (v as Record<string, unknown>)[field] === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
    when: ({ value }) => typeof value === "object" && value !== null && field in value && "confirmPassword" in value,
  });
}

/** First and last name side by side: registering, joining a team and the profile ask for them the same way. */
export function NameFields({
  field,
  className = "grid gap-4 sm:grid-cols-2",
}: FormParts<"firstName" | "lastName"> & { className?: string }) {
  return (
    <div className={className}>
      <TextField label="First name" autoComplete="given-name" {...field("firstName")} />
      <TextField label="Last name" autoComplete="family-name" {...field("lastName")} />
    </div>
  );
}

/**
 * A new password (`name`) and its confirmation (`confirmPassword`; "Confirm password" for the label "Password"), with
 * the length hint.
 */
export function NewPasswordFields<F extends "password" | "newPassword">({
  field,
  name,
  label = "Password",
}: FormParts<F | "confirmPassword"> & { name: F; label?: string }) {
  return (
    <>
      <PasswordField
        label={label}
        autoComplete="new-password"
        hint={`Must be at least ${PASSWORD_MIN} characters`}
        {...field(name)}
      />
      <PasswordField
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        {...field("confirmPassword")}
      />
    </>
  );
}
