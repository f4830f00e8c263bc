import { ShieldCheck } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { confirmTestPayment, createTestPaymentMethod } from "../api/billing.api.ts";
import { PaymentActions } from "./payment-actions.tsx";
import { CardError, runPayment } from "./payment-flow.ts";
import type { PaymentFormProps } from "./payment-form-loading.tsx";

const COUNTRIES = [
  ["US", "United States"],
  ["GB", "United Kingdom"],
  ["CA", "Canada"],
  ["AU", "Australia"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["ES", "Spain"],
  ["IT", "Italy"],
  ["NL", "Netherlands"],
  ["IE", "Ireland"],
  ["SE", "Sweden"],
  ["IN", "India"],
  ["BR", "Brazil"],
  ["JP", "Japan"],
] as const;

/** "12 / 29" or "12/2029" -> month and year. */
function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  return { month: Number(match[1]), year: Number(match[2]) };
}

/** 4242424242424242 -> 4242 4242 4242 4242, as card forms show it. */
const groupDigits = (text: string) =>
  text
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/**
 * Cove's own test-mode card form (PAYMENT_PROVIDER=test): the card goes to the test provider, which answers a payment
 * method as a card provider's form would; the well-known test numbers succeed, decline, or ask for a confirmation.
 */
export function TestPaymentForm({ submitLabel, onCancel, submit, onSuccess, failure }: PaymentFormProps) {
  const id = useId();
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<((outcome: "complete" | "fail") => void) | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing) return;
    const data = new FormData(event.currentTarget);
    const field = (name: string) => String(data.get(name) ?? "").trim();
    setError(null);
    setProcessing(true);
    const message = await runPayment({
      createPaymentMethod: async () => {
        const expiry = parseExpiry(field("expiry"));
        if (!expiry) throw new CardError("Your card's expiration date is incomplete.");
        try {
          return await createTestPaymentMethod({
            number: field("number"),
            exp_month: expiry.month,
            exp_year: expiry.year,
            cvc: field("cvc"),
            name: field("name"),
            address: {
              line1: field("line1"),
              city: field("city"),
              postal_code: field("postal_code"),
              country: field("country"),
            },
          });
        } catch (err) {
          if (err instanceof ApiError && err.fromServer) throw new CardError(err.message);
          throw err;
        }
      },
      submit,
      confirm: async (clientSecret) => {
        // The extra step a bank may ask for (3-D Secure): the test provider lets the person pass or fail it.
        const outcome = await new Promise<"complete" | "fail">((resolve) => setConfirmation(() => resolve));
        setConfirmation(null);
        try {
          await confirmTestPayment(clientSecret, outcome);
        } catch (err) {
          if (err instanceof ApiError && err.fromServer) throw new CardError(err.message);
          throw err;
        }
      },
      onSuccess,
      failure,
    });
    setProcessing(false);
    setError(message);
  }

  if (confirmation) {
    return (
      <section className="space-y-4" aria-labelledby={`${id}-confirm`}>
        <div className="flex items-start gap-3 rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-900">
          <ShieldCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div>
            <p id={`${id}-confirm`} className="font-semibold">
              Confirm this payment
            </p>
            <p className="mt-1">
              Your bank asks you to confirm this payment (3-D Secure). This is the test provider's confirmation step:
              complete it, or fail it to see what happens when a payment is not confirmed.
            </p>
          </div>
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => confirmation("fail")}>
            Fail authentication
          </Button>
          <Button onClick={() => confirmation("complete")}>Complete authentication</Button>
        </div>
      </section>
    );
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-describedby={`${id}-hint`} className="space-y-4">
      <p id={`${id}-hint`} className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
        Test mode: nothing is charged. Use 4242 4242 4242 4242 with any future date and any CVC; 4000 0000 0000 0002 is
        declined; 4000 0025 0000 3155 asks for a confirmation.
      </p>
      <TextField label="Name on card" name="name" autoComplete="cc-name" required maxLength={120} />
      <TextField
        label="Card number"
        name="number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        required
        maxLength={23}
        onChange={(e) => {
          e.currentTarget.value = groupDigits(e.currentTarget.value);
        }}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Expiry (MM / YY)"
          name="expiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          required
          maxLength={9}
        />
        <TextField
          label="CVC"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          required
          maxLength={4}
        />
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Billing address</legend>
        <TextField label="Address" name="line1" autoComplete="address-line1" maxLength={200} />
        <div className="grid grid-cols-2 gap-3">
          <TextField label="City" name="city" autoComplete="address-level2" maxLength={100} />
          <TextField label="Postal code" name="postal_code" autoComplete="postal-code" maxLength={20} />
        </div>
        <SelectField
          label="Country"
          name="country"
          autoComplete="country"
          defaultValue="US"
          options={COUNTRIES.map(([value, label]) => ({ value, label }))}
        />
      </fieldset>
      <PaymentActions error={error} processing={processing} submitLabel={submitLabel} onCancel={onCancel} />
    </form>
  );
}
