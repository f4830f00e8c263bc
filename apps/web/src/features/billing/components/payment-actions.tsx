import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";

interface PaymentActionsProps {
  /** Why the last attempt failed, shown above the buttons. */
  error: string | null;
  processing: boolean;
  submitLabel: string;
  onCancel: () => void;
}

/** The end of a card form, Stripe's or the test provider's: the failure if any, Cancel and the payment's button. */
export function PaymentActions({ error, processing, submitLabel, onCancel }: PaymentActionsProps) {
  return (
    <>
      {error && <Alert>{error}</Alert>}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={processing}>
          Cancel
        </Button>
        <Button type="submit" pending={processing} disabled={processing}>
          {processing ? "Processing..." : submitLabel}
        </Button>
      </div>
    </>
  );
}
