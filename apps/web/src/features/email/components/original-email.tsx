import type { TicketEmail } from "@cove/contract/email.ts";
import * as Dialog from "@radix-ui/react-dialog";
import { Mail, X } from "lucide-react";
import { useState } from "react";
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
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="inline-flex items-center gap-1 text-xs font-medium text-indigo-700 hover:underline">
        <Mail className="size-3.5" aria-hidden="true" />
        View original email
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] w-[calc(100%-1rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl"
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 p-4">
            <div className="min-w-0">
              <Dialog.Title className="truncate text-base font-semibold text-slate-900">
                {email.subject || "(no subject)"}
              </Dialog.Title>
              <p className="truncate text-xs text-slate-500">
                From {email.address} · images from the web are not loaded
              </p>
            </div>
            <Dialog.Close className="rounded-md p-1 text-slate-500 hover:bg-slate-100" aria-label="Close">
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          {open && <EmailBody id={email.id} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EmailBody({ id }: { id: string }) {
  const query = useOriginalEmail(id, true);
  if (query.isPending) return <Loading label="Loading the email" />;
  if (query.isError) {
    return (
      <LoadError
        className="space-y-3 p-4"
        title="Error loading the email"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.data.email.html) return <p className="p-4 text-sm text-slate-600">This email has no formatted version.</p>;
  return (
    <iframe
      title="Original email"
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={emailDocument(query.data.email.html)}
      className="h-[70vh] w-full rounded-b-xl"
    />
  );
}
