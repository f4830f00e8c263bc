import { ROLES } from "@cove/contract/constants.ts";
import { inviteUserBody } from "@cove/contract/users.ts";
import { X } from "lucide-react";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "../../../components/ui/button.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { EmailField, TextField } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError, toastErrorWithReason } from "../../../lib/toast-error.ts";
import { useInviteUser } from "../api/users.api.ts";
import { ROLE_LABELS } from "./user-format.ts";

const roleOptions: SelectOption[] = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

const FIELDS = ["email", "firstName", "lastName"] as const;
const required = z.string().trim().min(1, "Required");
/**
 * The spec's check before sending (each required field says "Required"); the address itself is checked by the
 * server with the contract's rule, and its message lands under the field.
 */
const inviteForm = z.object({
  email: required,
  firstName: required,
  lastName: required,
  role: inviteUserBody.shape.role.unwrap().unwrap(),
});
const EMPTY = { email: "", firstName: "", lastName: "", role: "agent" } as const;

/** Spec: email, first name and last name required ("Please fill in all required fields"); role agent by default. */
export function InviteForm({ onClose }: { onClose: () => void }) {
  const invite = useInviteUser();
  const { register, field, handleSubmit, setError, reset } = useContractForm(inviteForm, EMPTY);

  const submit = handleSubmit(
    async (values) => {
      try {
        const user = await invite.mutateAsync(values);
        toast.success("User invited successfully!", { description: `We emailed an invitation to ${user.email}.` });
        reset(EMPTY);
      } catch (error) {
        // The spec's toast holds the reason; the field it is about says it too.
        toastErrorWithReason(error, (reason) => `Failed to invite user: ${reason}`, "the server did not answer");
        applyFieldErrors(error, setError, FIELDS);
        if (error instanceof ApiError && error.code === "EMAIL_TAKEN") setError("email", { message: error.message });
      }
    },
    () => toastError(null, "Please fill in all required fields"),
  );

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
          <TextField label="First name" autoComplete="off" {...field("firstName")} />
          <TextField label="Last name" autoComplete="off" {...field("lastName")} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <EmailField autoComplete="off" {...field("email")} />
          <SelectField label="Role" options={roleOptions} {...register("role")} />
        </div>
        <FormActions pending={invite.isPending}>{invite.isPending ? "Sending…" : "Send invitation"}</FormActions>
      </form>
    </section>
  );
}
