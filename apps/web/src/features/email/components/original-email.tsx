import type { TicketEmail } from "@cove/contract/email.ts";
import { Mail } from "lucide-react";
import { useState } from "react";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { useOriginalEmail } from "../api/email.api.ts";
import { emailDocument } from "./email-frame.ts";

/**
 * "View original email" beside a message that came by email with HTML: opens it as it was written (formatting,
 * tables, links), in a sandboxed frame, while the ticket keeps showing its text.
 */
export function OriginalEmailButton({ email }: { email: TicketEmail }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex items-center gap-1 text-xs font-medium text-indigo-700 hover:underline"
      >
        <Mail className="size-3.5" aria-hidden="true" />
        View original email
      </button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title={email.subject || "(no subject)"}
        description={`From ${email.address} · images from the web are not loaded`}
        width="max-w-3xl"
        layout="column"
      >
        {open && <EmailBody id={email.id} />}
      </FormDialog>
    </>
  );
}

function EmailBody({ id }: { id: string }) {
  const query = useOriginalEmail(id, true);
  if (query.isPending) return <Loading label="Loading the email" />;
  if (query.isError) {
    return (
      <LoadError
        className="mt-4 space-y-3"
        title="Error loading the email"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.data.email.html)
    return <p className="mt-4 text-sm text-slate-600">This email has no formatted version.</p>;
  return (
    <iframe
      title="Original email"
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={emailDocument(query.data.email.html)}
      className="mt-4 h-[70vh] w-full rounded-md border border-slate-200"
    />
  );
}
