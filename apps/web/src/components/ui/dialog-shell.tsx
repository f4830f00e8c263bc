import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "./button.tsx";

interface DialogShellProps {
  open: boolean;
  /** Called with false when the dialog asks to close (Escape, the overlay, Cancel); a pending dialog ignores it. */
  onOpenChange: (open: boolean) => void;
  /** While its work runs, the dialog stays open. */
  pending?: boolean;
  title: ReactNode;
  titleClassName?: string;
  description?: ReactNode;
  descriptionClassName?: string;
  children: ReactNode;
}

/**
 * The modal that asks before something that cannot be undone: an alert dialog over a dimmed page, a title, what will
 * happen, then the dialog's own content (its buttons, or a form ending in `DialogActions`).
 */
export function DialogShell({
  open,
  onOpenChange,
  pending = false,
  title,
  titleClassName = "text-lg font-semibold text-slate-900",
  description,
  descriptionClassName = "mt-2 text-sm text-slate-600",
  children,
}: DialogShellProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          role="alertdialog"
          // Without a description, say so explicitly (Radix otherwise points at one that does not exist).
          {...(description ? {} : { "aria-describedby": undefined })}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className={titleClassName}>{title}</Dialog.Title>
          {description && <Dialog.Description className={descriptionClassName}>{description}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A dialog's buttons: Cancel (closes it; not while its work runs), then the dialog's own action. */
export function DialogActions({
  pending = false,
  cancelLabel = "Cancel",
  className = "flex flex-col-reverse gap-3 sm:flex-row sm:justify-end",
  children,
}: {
  pending?: boolean;
  cancelLabel?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Dialog.Close asChild>
        <Button variant="secondary" disabled={pending}>
          {cancelLabel}
        </Button>
      </Dialog.Close>
      {children}
    </div>
  );
}
