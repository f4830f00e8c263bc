import { type Contact, ERASED_CONTACT_NAME, eraseContactBody } from "@cove/contract/contacts.ts";

import { useState } from "react";
import { toast } from "sonner";
import { ExportControls } from "../../../components/export-controls.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DialogShell } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { PANEL, TitledSection } from "../../../components/ui/titled-section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import {
  downloadContactExport,
  useContactExport,
  useEraseContact,
  useStartContactExport,
} from "../api/contacts.queries.ts";

/** An erased customer: anonymized, with nothing left to export or erase. */
export const isErased = (contact: Contact) => contact.name === ERASED_CONTACT_NAME && contact.email === null;

/** A customer's data on request (admins): export it, or erase the customer (GDPR articles 15, 17 and 20). */
export function CustomerDataPanel({ contact }: { contact: Contact }) {
  const [erasing, setErasing] = useState(false);
  if (isErased(contact)) {
    return (
      <TitledSection
        titleId="customer-data"
        title="Customer data"
        className={PANEL}
        titleClassName="font-semibold text-slate-900"
      >
        <p className="mt-2 text-sm text-slate-600">
          This customer was erased: their chats, files, survey answers and sign-ins are gone, and their tickets show
          them as "{ERASED_CONTACT_NAME}".
        </p>
      </TitledSection>
    );
  }
  return (
    <>
      <ExportSection contactId={contact.id} />
      <TitledSection
        titleId="danger-zone"
        title="Danger zone"
        className="space-y-3 rounded-lg border border-red-200 bg-white p-4 shadow-sm"
        titleClassName="font-semibold text-red-800"
      >
        <p className="text-sm text-slate-600">
          Erasing this customer deletes their live chats, files, survey answers and portal sign-ins, and replaces their
          name and email on their tickets with "{ERASED_CONTACT_NAME}". The tickets and their numbers stay. This cannot
          be undone: export their data first if they asked for it.
        </p>
        <Button variant="danger" onClick={() => setErasing(true)}>
          Erase customer
        </Button>
      </TitledSection>
      <EraseDialog open={erasing} onOpenChange={setErasing} contact={contact} />
    </>
  );
}

function ExportSection({ contactId }: { contactId: string }) {
  const latest = useContactExport(contactId, true);
  const start = useStartContactExport(contactId);
  const current = latest.data?.export ?? null;
  return (
    <TitledSection
      titleId="customer-data"
      title="Customer data"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      titleClassName="font-semibold text-slate-900"
    >
      <p className="text-sm text-slate-600">
        A ZIP of JSON files with this customer's profile, their tickets with the public conversation (no internal
        notes), their live chats, survey answers and files: what they may ask for under data protection law.
      </p>
      {latest.isError && <p className="text-sm text-red-700">{errorText(latest.error, "Failed to load the export")}</p>}
      <ExportControls
        current={current}
        starting={start.isPending}
        preparing="Preparing the export…"
        onStart={() => start.mutateAsync()}
        onDownload={(id) => downloadContactExport(contactId, id)}
      />
    </TitledSection>
  );
}

function EraseDialog({
  open,
  onOpenChange,
  contact,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  contact: Contact;
}) {
  const erase = useEraseContact(contact.id);
  const { field, watch, setError, reset, submit } = useContractForm(eraseContactBody, { confirmEmail: "" });
  const typed = watch("confirmEmail");
  const onErase = submit(
    ["confirmEmail"],
    async ({ confirmEmail }) => {
      await erase.mutateAsync(confirmEmail);
      toast.success("The customer was erased.");
      onOpenChange(false);
      reset();
    },
    (err) => setError("confirmEmail", { message: errorText(err, "Failed to erase the customer") }),
  );
  // A chat visitor who gave no email is confirmed by their name (the API does the same).
  const expected = contact.email ?? contact.name;
  const what = contact.email ? "email" : "name";
  const matches = typed.trim().toLowerCase() === expected.trim().toLowerCase();
  return (
    <DialogShell
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) reset();
      }}
      pending={erase.isPending}
      title={`Erase ${contact.name}?`}
      titleClassName="text-lg font-semibold break-words text-slate-900"
      description={
        <>
          Their live chats, files, survey answers and portal sign-ins are deleted, and their tickets show "
          {ERASED_CONTACT_NAME}". Type <strong className="break-all">{expected}</strong> to confirm.
        </>
      }
    >
      <form className="mt-4 space-y-4" onSubmit={onErase}>
        <TextField
          label={contact.email ? "Customer's email" : "Customer's name"}
          autoComplete="off"
          spellCheck={false}
          {...field("confirmEmail")}
        />
        <p className="sr-only" aria-live="polite">
          {typed && !matches ? `This is not the customer's ${what} yet.` : ""}
        </p>
        <FormActions onCancel="close" variant="danger" pending={erase.isPending} disabled={!matches}>
          Erase forever
        </FormActions>
      </form>
    </DialogShell>
  );
}
