import { type EmailSettings, updateEmailBody } from "@cove/contract/settings.ts";
import { useId } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../../components/ui/checkbox-field.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { FormCard } from "../../../components/ui/form-card.tsx";
import { TextAreaField, TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateEmail } from "../api/settings.api.ts";
import { SETTINGS_FAILED, SETTINGS_SAVED } from "./general-form.tsx";

const FIELDS = ["sender_name", "reply_to", "signature"] as const;
/** The contract's body, with the acknowledgement always sent (the box is always there). */
const emailForm = updateEmailBody.extend({ acknowledge: updateEmailBody.shape.acknowledge.unwrap() });

/** Settings > Email Settings: how outgoing mail is signed, and whether new tickets by email are acknowledged. */
export function EmailForm({ settings }: { settings: EmailSettings }) {
  const id = useId();
  const update = useUpdateEmail();
  const {
    register,
    field,
    submit,
    formState: { errors },
  } = useContractForm(emailForm, {
    sender_name: settings.sender_name,
    reply_to: settings.reply_to ?? "",
    signature: settings.signature,
    acknowledge: settings.acknowledge,
  });
  const signatureError = errors.signature?.message;

  // One message per failure: beside the field it is about, else the toast (the spec's text, the server's beneath).
  const onSubmit = submit(
    FIELDS,
    async (values) => {
      // No reply-to is sent as empty text, as before (the contract reads it as none).
      await update.mutateAsync({ ...values, reply_to: values.reply_to ?? "" });
      toast.success(SETTINGS_SAVED);
    },
    (error) => toastError(error, SETTINGS_FAILED),
  );

  return (
    <FormCard onSubmit={onSubmit}>
      <TextField
        label="Sender name"
        maxLength={120}
        placeholder="Acme Support"
        hint="Shown as who the mail is from. Empty: your organization's name."
        {...field("sender_name")}
      />
      <TextField
        label="Reply-to address"
        type="email"
        maxLength={254}
        placeholder="support@example.com"
        hint={
          settings.inbound_address
            ? "Used only without an inbound address: replies to Cove's emails go back to their ticket."
            : "Where customers' replies go."
        }
        {...field("reply_to")}
      />
      <TextAreaField
        id={`${id}-signature`}
        label="Signature"
        hint="Added below every reply sent by email."
        error={signatureError}
        maxLength={2000}
        rows={4}
        {...register("signature")}
      />
      <CheckboxField
        label="Acknowledge new tickets by email"
        hint="A customer who writes in gets a short reply with their ticket number. Never sent to automatic replies."
        {...register("acknowledge")}
      />
      <FormActions pending={update.isPending}>Save changes</FormActions>
    </FormCard>
  );
}
