import type { ReactNode } from "react";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";

/** A modal holding a card form; it cannot be dismissed by a stray click while a payment is processing. */
export function PaymentDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      width="max-w-lg"
      keepOnOutsideClick
    >
      <div className="mt-4">{children}</div>
    </FormDialog>
  );
}
