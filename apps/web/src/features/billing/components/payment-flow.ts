import type { SubscribeAnswer } from "@cove/contract/billing.ts";
import { ApiError, errorText } from "../../../lib/api-client.ts";

/** A card provider's refusal, with its own words (docs/product.md, "Messages": shown inline). */
export class CardError extends Error {}

/**
 * One payment: the provider turns the card into a payment method, Cove is asked to use it, and a payment that needs
 * the cardholder's confirmation is confirmed with the provider. Answers the message to show inline, or null on success.
 */
export async function runPayment(steps: {
  createPaymentMethod: () => Promise<string>;
  submit: (paymentMethodId: string) => Promise<SubscribeAnswer>;
  confirm: (clientSecret: string) => Promise<void>;
  onSuccess: (answer: SubscribeAnswer) => void;
  failure: string;
}): Promise<string | null> {
  let paymentMethodId: string;
  try {
    paymentMethodId = await steps.createPaymentMethod();
  } catch (error) {
    if (error instanceof CardError) return error.message;
    return errorText(error, "Payment failed");
  }
  let answer: SubscribeAnswer;
  try {
    answer = await steps.submit(paymentMethodId);
  } catch (error) {
    // Shown once, in the form the person is looking at: a refused card in the provider's words, anything else as
    // the server's text, else the call's own fallback (docs/product.md, "Messages").
    if (error instanceof ApiError && error.code === "PAYMENT_FAILED") return error.message;
    return errorText(error, steps.failure);
  }
  if (answer.clientSecret) {
    try {
      await steps.confirm(answer.clientSecret);
    } catch (error) {
      if (error instanceof CardError) return error.message;
      return errorText(error, "Payment failed");
    }
  }
  steps.onSuccess(answer);
  return null;
}
