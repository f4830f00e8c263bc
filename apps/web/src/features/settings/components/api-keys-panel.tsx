import { API_KEY_SCOPES, type ApiKey, type ApiKeyScope, createApiKeyBody } from "@cove/contract/settings.ts";
import { Copy, KeyRound } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/settings.api.ts";

const SCOPE_LABELS: Record<ApiKeyScope, string> = { read: "Read only", read_write: "Read and write" };
const date = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" }) : "Never";

/** Settings > Integrations: keys for the public API, shown once when created, revocable. */
export function ApiKeysPanel() {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const { field, watch, setValue, submit } = useContractForm(createApiKeyBody, { name: "", scope: "read" });
  const name = watch("name");

  const onCreate = submit(
    ["name", "scope"],
    async (body) => {
      const answer = await create.mutateAsync(body);
      setCreated({ name: answer.api_key.name, token: answer.token });
      setValue("name", "");
    },
    (error) => toastError(error, "Failed to create API key"),
  );

  return (
    <div className="space-y-5">
      <form
        onSubmit={onCreate}
        noValidate
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <div>
          <h2 className="text-sm font-semibold text-slate-900">API keys</h2>
          <p className="mt-1 text-sm text-slate-600">
            Keys let your own tools use Cove's API (documented at{" "}
            <a className="text-indigo-600 underline hover:text-indigo-500" href="/api/docs">
              /api/docs
            </a>
            ). Send one as <code className="rounded bg-slate-100 px-1">Authorization: Bearer &lt;key&gt;</code>.
          </p>
        </div>
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
          <TextField label="Key name" maxLength={80} placeholder="e.g. Zapier" required {...field("name")} />
          <SelectField
            label="Scope"
            {...field("scope")}
            options={API_KEY_SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
          />
          <Button type="submit" pending={create.isPending} disabled={name.trim() === ""}>
            Create key
          </Button>
        </div>
        {created && (
          <Alert tone="success">
            <p className="font-medium">Copy the key “{created.name}” now: it will not be shown again.</p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code
                data-testid="new-api-key"
                className="rounded bg-white px-2 py-1 font-mono text-xs break-all text-slate-900"
              >
                {created.token}
              </code>
              <Button
                size="sm"
                variant="secondary"
                onClick={async () => {
                  await navigator.clipboard?.writeText(created.token);
                  toast.success("Key copied");
                }}
              >
                <Copy className="size-4" aria-hidden="true" /> Copy
              </Button>
            </div>
          </Alert>
        )}
      </form>

      <section className="rounded-xl border border-slate-200 bg-white shadow-sm" aria-label="Your API keys">
        {keys.isError ? (
          <div className="p-5">
            <Alert>Failed to load API keys</Alert>
          </div>
        ) : (keys.data?.api_keys.length ?? 0) === 0 ? (
          <p className="flex items-center gap-2 p-5 text-sm text-slate-500">
            <KeyRound className="size-4" aria-hidden="true" /> No API keys yet.
          </p>
        ) : (
          <DataTable columns={["Name", "Key", "Scope", "Created", "Last used", { label: "Actions", srOnly: true }]}>
            {keys.data?.api_keys.map((k) => (
              <tr key={k.id} className={k.revoked_at ? "text-slate-400" : undefined}>
                <td className="px-5 py-2">{k.name}</td>
                <td className="px-5 py-2 font-mono text-xs">{k.prefix}…</td>
                <td className="px-5 py-2">{SCOPE_LABELS[k.scope]}</td>
                <td className="px-5 py-2 whitespace-nowrap">
                  {date(k.created_at)}
                  {k.created_by ? ` by ${k.created_by}` : ""}
                </td>
                <td className="px-5 py-2 whitespace-nowrap">{date(k.last_used_at)}</td>
                <td className="px-5 py-2 text-right">
                  {k.revoked_at ? (
                    <span className="text-xs">Revoked</span>
                  ) : (
                    <Button size="sm" variant="ghost" onClick={() => setRevoking(k)}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke the key “${revoking?.name ?? ""}”?`}
        description="Anything using it stops working at once. This cannot be undone."
        confirmLabel="Revoke key"
        tone="danger"
        pending={revoke.isPending}
        onConfirm={async () => {
          if (!revoking) return;
          try {
            await revoke.mutateAsync(revoking.id);
            toast.success("API key revoked");
          } catch (error) {
            toastError(error, "Failed to revoke API key");
          }
          setRevoking(null);
        }}
      />
    </div>
  );
}
