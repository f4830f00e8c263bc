import type { SubscribeAnswer } from "@cove/contract/billing.ts";
import { Spinner } from "../../../components/ui/spinner.tsx";

export interface PaymentFormProps {
  submitLabel: string;
  onCancel: () => void;
  /** Sends the card's payment method id to Cove (subscribe, convert, or change the card). */
  submit: (paymentMethodId: string) => Promise<SubscribeAnswer>;
  /** After the payment went through, confirmation step included. */
  onSuccess: (answer: SubscribeAnswer) => void;
  /** The spec's fallback text of this call when neither the card provider nor the server says why. */
  failure: string;
}

export const LOADING_PAYMENT_FORM = "Loading payment form...";

export function PaymentFormLoading() {
  return (
    <p className="flex items-center gap-2 py-6 text-sm text-slate-600" role="status">
      <Spinner /> {LOADING_PAYMENT_FORM}
    </p>
  );
}
