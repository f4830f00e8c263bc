import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { DialogActions, DialogShell } from "./dialog-shell.tsx";

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
      <DialogActions
        pending={pending}
        cancelLabel={cancelLabel}
        className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end"
      >
        <Button variant={tone} pending={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </DialogShell>
  );
}
