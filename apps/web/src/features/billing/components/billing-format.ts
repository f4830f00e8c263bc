import type { PlanChangePreview } from "@cove/contract/billing-account.ts";
import { PLANS } from "@cove/contract/constants.ts";
import { trialDaysRemaining } from "@cove/contract/trial.ts";

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A long date's format in a time zone (the browser's when none is given, or when the zone is unknown here). */
function dateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let format = dateFormats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone });
    } catch {
      format = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });
    }
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * A Unix timestamp in seconds (the subscription's currentPeriodEnd) or an ISO date, as a long date: in `timeZone`
 * when given (an invoice's dates are the organization's days, as on its PDF), else in the browser's.
 */
export function longDate(value: number | string | null, timeZone?: string): string {
  if (value === null) return "—";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? "—" : dateFormat(timeZone).format(date);
}

/** Cents as money: 2900 usd -> $29.00. */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
};
export const brandName = (brand: string) => BRANDS[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);

export const statusLabel = (status: string) =>
  ({ active: "Active", past_due: "Past due", canceled: "Canceled", trialing: "Trial" })[status] ?? status;

/** The plan-change confirmation's sentence: what is charged today, what the next invoice does, and the new price. */
export function planChangeWording(p: PlanChangePreview, timeZone: string): string {
  const price = `$${PLANS[p.plan].price}/month`;
  const next = p.next_invoice_at
    ? `your next invoice, on ${longDate(p.next_invoice_at, timeZone)}`
    : "your next invoice";
  const amount = money(Math.abs(p.proration), p.currency);
  const after = `From then on, ${p.plan_name} is ${price}.`;
  if (p.proration > 0) {
    return `Nothing is charged today. For the rest of the current period you pay the difference between ${p.current_plan_name} and ${p.plan_name}: about ${amount}, added to ${next}. ${after}`;
  }
  if (p.proration < 0) {
    const leftover = -p.proration > p.price ? " Any credit the invoice does not use goes to the one after it." : "";
    return `Nothing is charged today. The unused part of your ${p.current_plan_name} plan for the rest of the current period, about ${amount}, is credited to ${next}.${leftover} ${after}`;
  }
  return `Nothing is charged today. ${p.plan_name} is ${price} from ${next}.`;
}

/**
 * When the trial ends, for the Billing page: "on January 15, 2030 (in 10 days)". Days of the organization's time
 * zone, counted as the trial banner counts them (the contract's trialDaysRemaining): from today's date to the end's.
 */
export function trialEndWording(endsAt: string, timeZone: string, at = new Date()): string {
  const days = trialDaysRemaining(at, new Date(endsAt), timeZone);
  const when = days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
  return `Your free trial ends on ${longDate(endsAt, timeZone)} (${when}).`;
}
