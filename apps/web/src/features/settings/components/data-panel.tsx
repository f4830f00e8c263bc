import { deleteOrganizationBody } from "@cove/contract/settings.ts";

import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { ExportControls } from "../../../components/export-controls.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DialogShell } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { TitledSection } from "../../../components/ui/titled-section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { clearSession } from "../../../lib/session-storage.ts";
import { downloadExport, useDeleteOrganization, useLatestExport, useStartExport } from "../api/settings.api.ts";

/** Your data: an export of everything (a ZIP of JSON files) and deleting the organization. */
export function DataPanel({ organizationName }: { organizationName: string }) {
  const latest = useLatestExport();
  const start = useStartExport();
  const current = latest.data?.export ?? null;
  const [deleting, setDeleting] = useState(false);

  return (
    <div className="space-y-5">
      <TitledSection
        titleId="export-title"
        title="Export your data"
        className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        titleClassName="text-sm font-semibold text-slate-900"
      >
        <p className="text-sm text-slate-600">
          A ZIP of JSON files with everything your organization owns: tickets and their comments, articles, team,
          settings, invoices. It works while your workspace is read-only too. Passwords and keys are never included.
        </p>
        <ExportControls
          current={current}
          starting={start.isPending}
          preparing="Preparing your export…"
          onStart={() => start.mutateAsync()}
          onDownload={downloadExport}
        />
      </TitledSection>

      <TitledSection
        titleId="delete-title"
        title="Delete organization"
        className="space-y-3 rounded-xl border border-red-200 bg-white p-5 shadow-sm"
        titleClassName="text-sm font-semibold text-red-800"
      >
        <p className="text-sm text-slate-600">
          Deletes your organization and everything in it for everyone, at once, and ends its subscription. This cannot
          be undone: export your data first.
        </p>
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Delete organization
        </Button>
      </TitledSection>
      <DeleteDialog open={deleting} onOpenChange={setDeleting} organizationName={organizationName} />
    </div>
  );
}

function DeleteDialog({
  open,
  onOpenChange,
  organizationName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationName: string;
}) {
  const remove = useDeleteOrganization();
  const navigate = useNavigate();
  const { field, watch, setError, submit } = useContractForm(deleteOrganizationBody, { confirm: "" });
  const typed = watch("confirm");
  const onDelete = submit(
    ["confirm"],
    async ({ confirm }) => {
      const { message } = await remove.mutateAsync(confirm);
      toast.success(message);
      clearSession();
      navigate("/login", { replace: true });
    },
    (err) => setError("confirm", { message: errorText(err, "Failed to delete the organization") }),
  );
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      pending={remove.isPending}
      title={`Delete ${organizationName}?`}
      description={
        <>
          Everything is deleted for everyone: tickets, articles, team, settings. Type{" "}
          <strong>{organizationName}</strong> to confirm.
        </>
      }
    >
      <form className="mt-4 space-y-4" onSubmit={onDelete}>
        <TextField label="Organization name" autoComplete="off" {...field("confirm")} />
        <FormActions
          onCancel="close"
          variant="danger"
          pending={remove.isPending}
          disabled={typed.trim() !== organizationName}
        >
          Delete forever
        </FormActions>
      </form>
    </DialogShell>
  );
}
