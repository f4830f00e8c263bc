import { ROLES, type Role } from "@cove/contract/constants.ts";
import { clsx } from "clsx";
import { ChevronDown, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { FieldShell, inputClasses, TextField } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { toastError, toastErrorWithReason } from "../../../lib/toast-error.ts";
import { useInviteUser } from "../api/users.api.ts";
import { ROLE_LABELS } from "./user-format.ts";

const EMPTY = { email: "", firstName: "", lastName: "", role: "agent" as Role };
type Field = "email" | "firstName" | "lastName";

/** Spec: email, first name and last name required ("Please fill in all required fields"); role agent by default. */
export function InviteForm({ onClose }: { onClose: () => void }) {
  const invite = useInviteUser();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const roleId = useId();

  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = (["email", "firstName", "lastName"] as const).filter((f) => values[f].trim() === "");
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((f) => [f, "Required"])));
      toastError(null, "Please fill in all required fields");
      return;
    }
    try {
      const user = await invite.mutateAsync(values);
      toast.success("User invited successfully!", { description: `We emailed an invitation to ${user.email}.` });
      setValues(EMPTY);
      setErrors({});
    } catch (error) {
      toastErrorWithReason(error, (reason) => `Failed to invite user: ${reason}`, "the server did not answer");
      if (error instanceof ApiError) {
        const fieldErrors: Partial<Record<Field, string>> = {};
        for (const d of error.details) {
          const name = d.path.split(".").pop();
          if (name === "email" || name === "firstName" || name === "lastName") fieldErrors[name] = d.message;
        }
        if (error.code === "EMAIL_TAKEN") fieldErrors.email = error.message;
        setErrors(fieldErrors);
      }
    }
  }

  return (
    <section
      aria-labelledby="invite-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="invite-heading" className="text-base font-semibold text-slate-900">
            Invite a team member
          </h2>
          <p className="mt-1 text-sm text-slate-600">They get an email with a link to join, valid for 7 days.</p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Close the invite form"
          onClick={onClose}
          className="-mt-2 -mr-2"
        >
          <X className="size-5" aria-hidden="true" />
        </Button>
      </div>
      <form onSubmit={submit} noValidate aria-label="Invite a team member" className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First name"
            autoComplete="off"
            value={values.firstName}
            onChange={(e) => set("firstName")(e.target.value)}
            error={errors.firstName}
          />
          <TextField
            label="Last name"
            autoComplete="off"
            value={values.lastName}
            onChange={(e) => set("lastName")(e.target.value)}
            error={errors.lastName}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <TextField
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="off"
            value={values.email}
            onChange={(e) => set("email")(e.target.value)}
            error={errors.email}
          />
          <FieldShell id={roleId} label="Role">
            <div className="relative">
              <select
                id={roleId}
                value={values.role}
                onChange={(e) => set("role")(e.target.value)}
                className={clsx(inputClasses, "appearance-none pr-9")}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
              <ChevronDown
                className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500"
                aria-hidden="true"
              />
            </div>
          </FieldShell>
        </div>
        <div className="flex justify-end">
          <Button type="submit" pending={invite.isPending}>
            {invite.isPending ? "Sending…" : "Send invitation"}
          </Button>
        </div>
      </form>
    </section>
  );
}
