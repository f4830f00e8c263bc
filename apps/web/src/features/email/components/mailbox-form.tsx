import { connectMailboxBody, type Mailbox, updateMailboxBody } from "@cove/contract/mailboxes.ts";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { CheckboxField } from "../../../components/ui/checkbox-field.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { PasswordField } from "../../../components/ui/password-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useConnectMailbox, useUpdateMailbox } from "../api/mailboxes.api.ts";

/** The fields that show a message of their own. */
const FIELDS = ["host", "port", "tls", "user", "password", "folder"] as const;

/** The port as typed (digits), checked and sent as the contract's number. */
const port = z.string().transform(Number).pipe(connectMailboxBody.shape.port);
const connectForm = connectMailboxBody.extend({ port });
const updateForm = updateMailboxBody.extend({ port });

/**
 * Connect a mailbox over IMAP, or change a connected one's sign-in (then an empty password keeps the saved one).
 * Saving tries the server first: a wrong password or an unreachable server is said here, on its field.
 */
export function MailboxForm({ mailbox, onDone }: { mailbox?: Mailbox; onDone: () => void }) {
  const connect = useConnectMailbox();
  const update = useUpdateMailbox();
  const {
    register,
    getValues,
    setValue,
    setError,
    submit,
    formState: { errors: fieldErrors },
  } = useContractForm(mailbox ? updateForm : connectForm, {
    host: mailbox?.host ?? "",
    port: String(mailbox?.port ?? 993),
    tls: mailbox?.tls ?? true,
    user: mailbox?.user ?? "",
    password: "",
    folder: mailbox?.folder ?? "INBOX",
  });
  const errors = Object.fromEntries(FIELDS.map((f) => [f, fieldErrors[f]?.message])) as Record<
    (typeof FIELDS)[number],
    string | undefined
  >;
  const problem = fieldErrors.root?.message;
  const pending = connect.isPending || update.isPending;
  const portInput = register("port");

  // One message per failure: on the field it is about (a refused password...), else above the form.
  const onSubmit = submit(
    FIELDS,
    async (body) => {
      if (mailbox) await update.mutateAsync({ id: mailbox.id, body });
      else await connect.mutateAsync({ ...body, password: body.password ?? "" });
      toast.success(mailbox ? "Mailbox updated: the import goes on" : "Mailbox connected: the import has started");
      onDone();
    },
    (error) => setError("root", { message: errorText(error, "The mailbox could not be saved") }),
  );

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
          maxLength={253}
          placeholder="imap.example.com"
          autoComplete="off"
          error={errors.host}
          {...register("host")}
        />
        <TextField
          label="Port"
          inputMode="numeric"
          error={errors.port}
          {...portInput}
          onChange={(e) => {
            e.target.value = e.target.value.replace(/\D/g, "").slice(0, 5);
            return portInput.onChange(e);
          }}
        />
      </div>
      <CheckboxField
        label="Use TLS"
        hint={errors.tls ?? "Port 993 uses TLS; port 143 starts plain and switches to TLS when the server offers it."}
        {...register("tls", {
          onChange: (e) => {
            const typed = getValues("port");
            if (typed === "993" || typed === "143") setValue("port", e.target.checked ? "993" : "143");
          },
        })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="User name"
          maxLength={320}
          autoComplete="off"
          placeholder="support@example.com"
          error={errors.user}
          {...register("user")}
        />
        <PasswordField
          label="Password"
          maxLength={1000}
          autoComplete="new-password"
          hint={
            mailbox
              ? "Leave empty to keep the saved one. For Gmail and Outlook, an app password."
              : "For Gmail and Outlook, an app password. Kept encrypted; never shown again."
          }
          error={errors.password}
          {...register("password")}
        />
      </div>
      <TextField
        label="Folder"
        maxLength={200}
        hint="INBOX, or another folder such as Support."
        error={errors.folder}
        {...register("folder")}
      />
      <FormActions onCancel={onDone} pending={pending}>
        {mailbox ? "Save and go on" : "Connect and import"}
      </FormActions>
    </form>
  );
}
