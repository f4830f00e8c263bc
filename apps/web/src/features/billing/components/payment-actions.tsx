import { Alert } from "../../../components/ui/alert.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";

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
      <FormActions onCancel={onCancel} pending={processing}>
        {processing ? "Processing..." : submitLabel}
      </FormActions>
    </>
  );
}
