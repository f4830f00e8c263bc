import type { EmailSettings } from "@cove/contract/settings.ts";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { describedBy, FieldShell, inputClasses, TextField } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateEmail } from "../api/settings.api.ts";
import { SETTINGS_FAILED, SETTINGS_SAVED } from "./general-form.tsx";

/** Settings > Email Settings: how outgoing mail is signed, and whether new tickets by email are acknowledged. */
export function EmailForm({ settings }: { settings: EmailSettings }) {
  const id = useId();
  const update = useUpdateEmail();
  const [senderName, setSenderName] = useState(settings.sender_name);
  const [replyTo, setReplyTo] = useState(settings.reply_to ?? "");
  const [signature, setSignature] = useState(settings.signature);
  const [acknowledge, setAcknowledge] = useState(settings.acknowledge);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await update.mutateAsync({ sender_name: senderName, reply_to: replyTo.trim(), signature, acknowledge });
      toast.success(SETTINGS_SAVED);
    } catch (error) {
      if (error instanceof ApiError) setErrors(Object.fromEntries(error.details.map((d) => [d.path, d.message])));
      toastError(error, SETTINGS_FAILED);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <TextField
        label="Sender name"
        value={senderName}
        onChange={(e) => setSenderName(e.target.value)}
        maxLength={120}
        placeholder="Acme Support"
        hint="Shown as who the mail is from. Empty: your organization's name."
        error={errors.sender_name}
      />
      <TextField
        label="Reply-to address"
        type="email"
        value={replyTo}
        onChange={(e) => setReplyTo(e.target.value)}
        maxLength={254}
        placeholder="support@example.com"
        hint={
          settings.inbound_address
            ? "Used only without an inbound address: replies to Cove's emails go back to their ticket."
            : "Where customers' replies go."
        }
        error={errors.reply_to}
      />
      <FieldShell
        id={`${id}-signature`}
        label="Signature"
        hint="Added below every reply sent by email."
        error={errors.signature}
      >
        <textarea
          id={`${id}-signature`}
          value={signature}
          onChange={(e) => setSignature(e.target.value)}
          maxLength={2000}
          rows={4}
          aria-describedby={describedBy(`${id}-signature`, "hint", errors.signature)}
          className={inputClasses}
        />
      </FieldShell>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
          checked={acknowledge}
          onChange={(e) => setAcknowledge(e.target.checked)}
        />
        <span>
          <span className="block text-sm font-medium text-slate-800">Acknowledge new tickets by email</span>
          <span className="block text-xs text-slate-500">
            A customer who writes in gets a short reply with their ticket number. Never sent to automatic replies.
          </span>
        </span>
      </label>
      <div className="flex justify-end">
        <Button type="submit" pending={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
