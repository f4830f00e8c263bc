import * as Dialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { Button, type ButtonProps } from "./button.tsx";

interface FormActionsProps extends Omit<ButtonProps, "className"> {
  /**
   * What Cancel does: a function, or "close" in a dialog (Cancel closes it). Without it the form's button stands alone
   * at the row's right end.
   */
  onCancel?: (() => void) | "close";
  cancelLabel?: string;
  cancelVariant?: "secondary" | "ghost";
  /** The row's own classes: space or a rule above it, its column in a grid. */
  className?: string;
}

/**
 * The end of a form or a dialog: Cancel, then the one action (a submit button unless `type` says otherwise), at the
 * right end. On a phone the two stack, the action on top and both as wide as the form. Cancel is disabled while the
 * action is pending; the other props are the action button's.
 */
export function FormActions({
  onCancel,
  cancelLabel = "Cancel",
  cancelVariant = "secondary",
  className,
  type = "submit",
  size,
  pending = false,
  ...action
}: FormActionsProps) {
  const cancel = onCancel && (
    <Button
      variant={cancelVariant}
      size={size}
      disabled={pending}
      onClick={onCancel === "close" ? undefined : onCancel}
    >
      {cancelLabel}
    </Button>
  );
  return (
    <div
      className={clsx(
        "flex",
        onCancel ? "flex-col-reverse gap-3 sm:flex-row sm:justify-end" : "justify-end",
        className,
      )}
    >
      {onCancel === "close" ? <Dialog.Close asChild>{cancel}</Dialog.Close> : cancel}
      <Button type={type} size={size} pending={pending} {...action} />
    </div>
  );
}
