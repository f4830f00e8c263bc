import type { Stripe, StripeCardElement } from "@stripe/stripe-js";
// The "pure" entry adds Stripe's script only when loadStripe is called; the main entry adds it on import.
import { loadStripe } from "@stripe/stripe-js/pure";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { PaymentActions } from "./payment-actions.tsx";
import { CardError, runPayment } from "./payment-flow.ts";
import { PaymentFormLoading, type PaymentFormProps } from "./payment-form-loading.tsx";

/** Past this, Stripe.js is taken as unreachable and the form says so instead of spinning. */
const LOAD_TIMEOUT_MS = 15_000;
export const STRIPE_UNAVAILABLE =
  "The payment form could not load: Stripe could not be reached from this browser. Check your connection (or an ad or script blocker), then reload the page.";

type Loaded = { state: "loading" } | { state: "failed" } | { state: "ready"; stripe: Stripe };

/** Stripe's card element (PAYMENT_PROVIDER=stripe): the card never touches Cove's servers, only its payment method id. */
export function StripePaymentForm({
  publishableKey,
  submitLabel,
  onCancel,
  submit,
  onSuccess,
  failure,
}: PaymentFormProps & { publishableKey: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mountRef = useRef<HTMLDivElement>(null);
  const cardRef = useRef<StripeCardElement | null>(null);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => live && setLoaded({ state: "failed" }), LOAD_TIMEOUT_MS);
    loadStripe(publishableKey)
      .then((stripe) => {
        if (!live) return;
        clearTimeout(timer);
        setLoaded(stripe ? { state: "ready", stripe } : { state: "failed" });
      })
      .catch(() => {
        clearTimeout(timer);
        if (live) setLoaded({ state: "failed" });
      });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [publishableKey]);

  useEffect(() => {
    if (loaded.state !== "ready" || !mountRef.current) return;
    const card = loaded.stripe.elements().create("card", { hidePostalCode: false });
    card.mount(mountRef.current);
    cardRef.current = card;
    return () => {
      card.destroy();
      cardRef.current = null;
    };
  }, [loaded]);

  if (loaded.state === "loading") return <PaymentFormLoading />;
  if (loaded.state === "failed") {
    return (
      <div className="space-y-4">
        <Alert>{STRIPE_UNAVAILABLE}</Alert>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }
  const { stripe } = loaded;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const card = cardRef.current;
    if (processing || !card) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setError(null);
    setProcessing(true);
    const message = await runPayment({
      createPaymentMethod: async () => {
        const result = await stripe.createPaymentMethod({ type: "card", card, billing_details: { name } });
        if (result.error) throw new CardError(result.error.message ?? "Payment failed");
        return result.paymentMethod.id;
      },
      submit,
      confirm: async (clientSecret) => {
        const result = await stripe.confirmCardPayment(clientSecret);
        if (result.error) throw new CardError(result.error.message ?? "Payment failed");
      },
      onSuccess,
      failure,
    });
    setProcessing(false);
    setError(message);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField label="Name on card" name="name" autoComplete="cc-name" required maxLength={120} />
      <div>
        <span className="mb-1.5 block text-sm font-medium text-slate-700">Card</span>
        <div ref={mountRef} className="rounded-md border border-slate-300 bg-white px-3 py-3 shadow-sm" />
      </div>
      <PaymentActions error={error} processing={processing} submitLabel={submitLabel} onCancel={onCancel} />
    </form>
  );
}
