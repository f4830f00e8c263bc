/**
 * The test provider's cards: the numbers card providers publish for test mode, behaving as they do there. No other
 * number is accepted, so nobody types a real card into a form that charges nothing.
 */
export type CardBehaviour =
  /** Every payment succeeds. */
  | { kind: "succeed" }
  /** Refused when it is attached, with the provider's message. */
  | { kind: "decline"; code: string; message: string }
  /** The first payment needs an extra confirmation step (3-D Secure); later renewals go through. */
  | { kind: "authenticate" }
  /** Attached fine, then every payment is declined (e.g. a renewal fails). */
  | { kind: "decline_charges" };

export interface TestCard {
  brand: string;
  behaviour: CardBehaviour;
}

const declined = "Your card was declined.";
const succeed = { kind: "succeed" } as const;

export const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", behaviour: succeed },
  "4000056655665556": { brand: "visa", behaviour: succeed },
  "5555555555554444": { brand: "mastercard", behaviour: succeed },
  "2223003122003222": { brand: "mastercard", behaviour: succeed },
  "378282246310005": { brand: "amex", behaviour: succeed },
  "6011111111111117": { brand: "discover", behaviour: succeed },
  "4000000000000002": { brand: "visa", behaviour: { kind: "decline", code: "card_declined", message: declined } },
  "4000000000009995": {
    brand: "visa",
    behaviour: { kind: "decline", code: "insufficient_funds", message: "Your card has insufficient funds." },
  },
  "4000000000009987": { brand: "visa", behaviour: { kind: "decline", code: "lost_card", message: declined } },
  "4000000000000069": {
    brand: "visa",
    behaviour: { kind: "decline", code: "expired_card", message: "Your card has expired." },
  },
  "4000000000000127": {
    brand: "visa",
    behaviour: { kind: "decline", code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  },
  "4000000000000119": {
    brand: "visa",
    behaviour: {
      kind: "decline",
      code: "processing_error",
      message: "An error occurred while processing your card. Try again in a little bit.",
    },
  },
  "4000002500003155": { brand: "visa", behaviour: { kind: "authenticate" } },
  "4000000000000341": { brand: "visa", behaviour: { kind: "decline_charges" } },
};

export const CHARGE_DECLINED = declined;
export const AUTHENTICATION_FAILED =
  "We are unable to authenticate your payment method. Please choose a different payment method and try again.";

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** The checks a card form makes before anything is sent, with the messages card providers show for them. */
export function cardProblem(card: CardInput, at: Date): string | null {
  const digits = card.number.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits) || digits.length < 13) return "Your card number is incomplete.";
  if (!luhnValid(digits)) return "Your card number is invalid.";
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (card.exp_month < 1 || card.exp_month > 12) return "Your card's expiration month is invalid.";
  const thisYear = at.getUTCFullYear();
  if (year < thisYear) return "Your card's expiration year is in the past.";
  if (year === thisYear && card.exp_month < at.getUTCMonth() + 1) return "Your card's expiration date is in the past.";
  if (year > thisYear + 50) return "Your card's expiration year is invalid.";
  const cvcLength = digits.startsWith("34") || digits.startsWith("37") ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) return "Your card's security code is incomplete.";
  if (!TEST_CARDS[digits]) {
    return "Your card was declined. This is a test payment form: use a test card such as 4242 4242 4242 4242.";
  }
  return null;
}
