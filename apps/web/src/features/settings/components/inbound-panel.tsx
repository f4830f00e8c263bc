import { useId } from "react";

/**
 * Settings > Email Settings: the organization's inbound address, and how to send a mailbox's mail to it. Without an
 * INBOUND_DOMAIN on the server there is no address yet, and the panel says so.
 */
export function InboundPanel({ address }: { address: string | null }) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Inbound address
        </h2>
        {address ? (
          <>
            <p className="mt-1 text-sm text-slate-600">
              Mail sent to this address becomes a ticket; replies to Cove's emails come back to their ticket.
            </p>
            <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-200">
              {address}
            </p>
          </>
        ) : (
          <p className="mt-1 text-sm text-slate-600">
            Receiving mail is not set up on this server yet: the administrator of your Cove installation sets
            INBOUND_SMTP_PORT and INBOUND_DOMAIN, and your inbound address appears here.
          </p>
        )}
      </div>
      {address && (
        <div className="grid gap-4 text-sm text-slate-700 sm:grid-cols-2">
          <div>
            <h3 className="font-medium text-slate-900">Forward from Gmail or Google Workspace</h3>
            <ol className="mt-2 list-decimal space-y-1 pl-5">
              <li>In Gmail, open Settings, See all settings, Forwarding and POP/IMAP.</li>
              <li>Choose Add a forwarding address and enter the address above.</li>
              <li>
                Google sends a confirmation message to it: it arrives here as a ticket. Open it and use its code or
                link.
              </li>
              <li>Choose Forward a copy of incoming mail to this address, and save.</li>
            </ol>
          </div>
          <div>
            <h3 className="font-medium text-slate-900">Forward from Outlook or Microsoft 365</h3>
            <ol className="mt-2 list-decimal space-y-1 pl-5">
              <li>In Outlook on the web, open Settings, Mail, Forwarding.</li>
              <li>Turn on forwarding, enter the address above and keep a copy of forwarded messages if you like.</li>
              <li>Save. Microsoft 365 may block forwarding outside your company until an administrator allows it.</li>
            </ol>
          </div>
        </div>
      )}
    </section>
  );
}
