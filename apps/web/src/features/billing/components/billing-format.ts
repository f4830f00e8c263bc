const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

/** A Unix timestamp in seconds (the subscription's currentPeriodEnd) or an ISO date, as a long date. */
export function longDate(value: number | string | null): string {
  if (value === null) return "—";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? "—" : dateFormat.format(date);
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
