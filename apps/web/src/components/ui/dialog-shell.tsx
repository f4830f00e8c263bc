import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { CSSProperties, ReactNode } from "react";
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
 * happen, then the dialog's own content (its buttons, or a form ending in `FormActions`).
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

interface FormDialogProps {
  open: boolean;
  /** Called when the dialog asks to open or close (Escape, the overlay, the cross); a pending dialog ignores it. */
  onOpenChange: (open: boolean) => void;
  /** While its work runs, the dialog stays open. */
  pending?: boolean;
  title: ReactNode;
  /** The dialog's width at most: "max-w-lg" for a short form, "max-w-2xl" for a long one. */
  width: "max-w-lg" | "max-w-2xl";
  style?: CSSProperties;
  children: ReactNode;
}

/**
 * The modal that holds a form: a dialog over a dimmed page with its title and a Close cross, scrolling inside itself
 * when the form is taller than the screen.
 */
export function FormDialog({ open, onOpenChange, pending = false, title, width, style, children }: FormDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          style={style}
          aria-describedby={undefined}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl`}
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" className="-mt-2 -mr-2" aria-label="Close">
                <X className="size-5" aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
