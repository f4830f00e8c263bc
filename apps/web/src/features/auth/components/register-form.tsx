import { registerBody } from "@cove/contract/auth.ts";
import { useState } from "react";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField, TextField } from "../../../components/ui/text-field.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { NameFields, NewPasswordFields, withPasswordConfirmation } from "./account-fields.tsx";

const FALLBACK = "Registration failed";
const FIELDS = ["organizationName", "firstName", "lastName", "email", "password"] as const;

const registerForm = withPasswordConfirmation(registerBody.extend({ confirmPassword: z.string() }));

export function RegisterForm() {
  const { register: createAccount } = useAuth();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    field,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useContractForm(registerForm, {
    organizationName: "",
    firstName: "",
    lastName: "",
    email: "",
    password: "",
    confirmPassword: "",
  });

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      // On success the guest-only gate takes the new user to /dashboard.
      await createAccount({
        organizationName: values.organizationName,
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        password: values.password,
      });
    } catch (error) {
      // Shown once, by the field it is about or above the form.
      if (error instanceof ApiError && error.code === "EMAIL_TAKEN") {
        setError("email", { type: "server", message: error.message });
      } else if (!applyFieldErrors(error, setError, FIELDS)) {
        setServerError(errorText(error, FALLBACK));
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Start your free trial">
      {serverError && <Alert>{serverError}</Alert>}
      <TextField label="Company name" autoComplete="organization" {...field("organizationName")} />
      <NameFields field={field} className="grid gap-5 sm:grid-cols-2" />
      <EmailField label="Email address" {...field("email")} />
      <NewPasswordFields field={field} name="password" />
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Creating your account…" : "Start free trial"}
      </Button>
    </form>
  );
}
