import type { ReactNode } from "react";
import { DialogShell } from "./dialog-shell.tsx";
import { FormActions } from "./form-actions.tsx";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, with the spec's exact text where it has one. */
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: "primary" | "danger";
  pending?: boolean;
  onConfirm: () => void;
}

/** Every confirmation is a modal dialog (docs/product.md: no blocking browser confirm), and this is the one. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  tone = "primary",
  pending = false,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      title={title}
      description={description}
      descriptionClassName="mt-2 text-sm break-words text-slate-600"
    >
      <FormActions
        type="button"
        onCancel="close"
        cancelLabel={cancelLabel}
        variant={tone}
        pending={pending}
        onClick={onConfirm}
        className="mt-6"
      >
        {confirmLabel}
      </FormActions>
    </DialogShell>
  );
}
