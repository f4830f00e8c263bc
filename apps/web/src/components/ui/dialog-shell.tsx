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

/** What every modal of the app is: a dialog over a dimmed page, centred, that a pending dialog keeps open. */
function ModalFrame({
  open,
  onOpenChange,
  pending,
  keepOnOutsideClick = false,
  role,
  described,
  className,
  style,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** A click beside the dialog does not close it (a card form: a stray click must not lose what was typed). */
  keepOnOutsideClick?: boolean;
  role?: "alertdialog";
  /** Whether the dialog has a Description (Radix otherwise points at one that does not exist). */
  described: boolean;
  className: string;
  style?: CSSProperties | undefined;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          // Radix's own role ("dialog") stands unless one is given: an explicit undefined would erase it.
          {...(role ? { role } : {})}
          style={style}
          {...(described ? {} : { "aria-describedby": undefined })}
          {...(keepOnOutsideClick ? { onPointerDownOutside: (e: Event) => e.preventDefault() } : {})}
          className={`fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl ${className}`}
        >
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
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
    <ModalFrame
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      role="alertdialog"
      described={Boolean(description)}
      className="max-w-md"
    >
      <Dialog.Title className={titleClassName}>{title}</Dialog.Title>
      {description && <Dialog.Description className={descriptionClassName}>{description}</Dialog.Description>}
      {children}
    </ModalFrame>
  );
}

interface FormDialogProps {
  open: boolean;
  /** Called when the dialog asks to open or close (Escape, the overlay, the cross); a pending dialog ignores it. */
  onOpenChange: (open: boolean) => void;
  /** While its work runs, the dialog stays open. */
  pending?: boolean;
  title: ReactNode;
  /** A line below the title: what the dialog is for, or whom it is about. */
  description?: ReactNode;
  /** The dialog's width at most: "max-w-md" or "max-w-lg" for a short form, "max-w-2xl" for a long one, "max-w-3xl"
   * for a document. */
  width: "max-w-md" | "max-w-lg" | "max-w-2xl" | "max-w-3xl";
  /**
   * "scroll" (the default): the whole dialog scrolls when it is taller than the screen. "column": the dialog is a
   * column no taller than the screen and its content says which part scrolls (a list under a search box, a frame).
   */
  layout?: "scroll" | "column";
  keepOnOutsideClick?: boolean;
  style?: CSSProperties | undefined;
  children: ReactNode;
}

/**
 * The modal that holds a form or something to read: a dialog over a dimmed page with its title (and a line below it)
 * and a Close cross.
 */
export function FormDialog({
  open,
  onOpenChange,
  pending = false,
  title,
  description,
  width,
  layout = "scroll",
  keepOnOutsideClick = false,
  style,
  children,
}: FormDialogProps) {
  const fit =
    layout === "scroll" ? "max-h-[calc(100%-2rem)] overflow-y-auto" : "flex max-h-[calc(100dvh-2rem)] flex-col";
  return (
    <ModalFrame
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      keepOnOutsideClick={keepOnOutsideClick}
      described={Boolean(description)}
      style={style}
      className={`${fit} ${width}`}
    >
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <Dialog.Title className="text-lg font-semibold break-words text-slate-900">{title}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          )}
        </div>
        <Dialog.Close asChild>
          <Button variant="ghost" size="icon" className="-mt-2 -mr-2 shrink-0" aria-label="Close" disabled={pending}>
            <X className="size-5" aria-hidden="true" />
          </Button>
        </Dialog.Close>
      </div>
      {children}
    </ModalFrame>
  );
}
