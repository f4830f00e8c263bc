import { registerBody } from "@cove/contract/auth.ts";
import { PASSWORD_MIN } from "@cove/contract/constants.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";

const FALLBACK = "Registration failed";
const FIELDS = ["organizationName", "firstName", "lastName", "email", "password"] as const;

const registerForm = registerBody
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
    // Zod skips object refinements while other fields are invalid; the mismatch should show alongside those errors.
    when: ({ value }) =>
      typeof value === "object" && value !== null && "password" in value && "confirmPassword" in value,
  });

export function RegisterForm() {
  const { register: createAccount } = useAuth();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(registerForm),
    defaultValues: { organizationName: "", firstName: "", lastName: "", email: "", password: "", confirmPassword: "" },
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
      <TextField
        label="Company name"
        autoComplete="organization"
        error={errors.organizationName?.message}
        {...register("organizationName")}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="First name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...register("firstName")}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...register("lastName")}
        />
      </div>
      <TextField
        label="Email address"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint={`Must be at least ${PASSWORD_MIN} characters`}
        error={errors.password?.message}
        {...register("password")}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register("confirmPassword")}
      />
      <Button type="submit" pending={isSubmitting} className="w-full">
        {isSubmitting ? "Creating your account…" : "Start free trial"}
      </Button>
    </form>
  );
}
