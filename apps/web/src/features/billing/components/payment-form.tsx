import { lazy, Suspense } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useBillingConfig } from "../api/billing.api.ts";
import { PaymentFormLoading, type PaymentFormProps } from "./payment-form-loading.tsx";
import { TestPaymentForm } from "./test-payment-form.tsx";

// Stripe's form (and Stripe.js with it) is only fetched with PAYMENT_PROVIDER=stripe: under the test provider the
// app's CSP does not allow js.stripe.com, and nothing of Stripe's should load there.
const StripePaymentForm = lazy(async () => ({
  default: (await import("./stripe-payment-form.tsx")).StripePaymentForm,
}));

/** The card form of the configured provider (PAYMENT_PROVIDER): Cove's test form, or Stripe's card element. */
export type { PaymentFormProps };

export function PaymentForm(props: PaymentFormProps) {
  const config = useBillingConfig();
  if (config.isPending) return <PaymentFormLoading />;
  if (config.isError) {
    return (
      <div className="space-y-4">
        <Alert>{errorText(config.error, "The payment form could not load. Reload the page and try again.")}</Alert>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }
  if (config.data.provider === "stripe" && config.data.publishableKey) {
    return (
      <Suspense fallback={<PaymentFormLoading />}>
        <StripePaymentForm publishableKey={config.data.publishableKey} {...props} />
      </Suspense>
    );
  }
  return <TestPaymentForm {...props} />;
}
