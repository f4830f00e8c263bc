import type { Mailbox } from "@cove/contract/mailboxes.ts";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useConnectMailbox, useUpdateMailbox } from "../api/mailboxes.api.ts";

/** The fields that show a message of their own. */
const FIELDS = ["host", "port", "user", "password", "folder"] as const;

/**
 * Connect a mailbox over IMAP, or change a connected one's sign-in (then an empty password keeps the saved one).
 * Saving tries the server first: a wrong password or an unreachable server is said here, on its field.
 */
export function MailboxForm({ mailbox, onDone }: { mailbox?: Mailbox; onDone: () => void }) {
  const connect = useConnectMailbox();
  const update = useUpdateMailbox();
  const [host, setHost] = useState(mailbox?.host ?? "");
  const [port, setPort] = useState(String(mailbox?.port ?? 993));
  const [tls, setTls] = useState(mailbox?.tls ?? true);
  const [user, setUser] = useState(mailbox?.user ?? "");
  const [password, setPassword] = useState("");
  const [folder, setFolder] = useState(mailbox?.folder ?? "INBOX");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const pending = connect.isPending || update.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setProblem(null);
    const body = { host: host.trim(), port: Number(port), tls, user: user.trim(), password, folder: folder.trim() };
    try {
      if (mailbox) await update.mutateAsync({ id: mailbox.id, body });
      else await connect.mutateAsync(body);
      toast.success(mailbox ? "Mailbox updated: the import goes on" : "Mailbox connected: the import has started");
      onDone();
    } catch (error) {
      // One message per failure: on the field it is about (a refused password...), else above the form.
      const onFields =
        error instanceof ApiError ? error.details.filter((d) => (FIELDS as readonly string[]).includes(d.path)) : [];
      if (onFields.length > 0) setErrors(Object.fromEntries(onFields.map((d) => [d.path, d.message])));
      else setProblem(errorText(error, "The mailbox could not be saved"));
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-label={mailbox ? "Mailbox sign-in" : "Connect a mailbox"}
    >
      {problem && <Alert>{problem}</Alert>}
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <TextField
          label="Server"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          maxLength={253}
          placeholder="imap.example.com"
          autoComplete="off"
          error={errors.host}
        />
        <TextField
          label="Port"
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value.replace(/\D/g, "").slice(0, 5))}
          error={errors.port}
        />
      </div>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
          checked={tls}
          onChange={(e) => {
            setTls(e.target.checked);
            if (port === "993" || port === "143") setPort(e.target.checked ? "993" : "143");
          }}
        />
        <span>
          <span className="block text-sm font-medium text-slate-800">Use TLS</span>
          <span className="block text-xs text-slate-500">
            {errors.tls ?? "Port 993 uses TLS; port 143 starts plain and switches to TLS when the server offers it."}
          </span>
        </span>
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="User name"
          value={user}
          onChange={(e) => setUser(e.target.value)}
          maxLength={320}
          autoComplete="off"
          placeholder="support@example.com"
          error={errors.user}
        />
        <PasswordField
          label="Password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          maxLength={1000}
          autoComplete="new-password"
          hint={
            mailbox
              ? "Leave empty to keep the saved one. For Gmail and Outlook, an app password."
              : "For Gmail and Outlook, an app password. Kept encrypted; never shown again."
          }
          error={errors.password}
        />
      </div>
      <TextField
        label="Folder"
        value={folder}
        onChange={(e) => setFolder(e.target.value)}
        maxLength={200}
        hint="INBOX, or another folder such as Support."
        error={errors.folder}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" pending={pending}>
          {mailbox ? "Save and go on" : "Connect and import"}
        </Button>
      </div>
    </form>
  );
}
