/**
 * The time that billing and data-lifecycle decisions are made at: a trial's end, a grace period, a canceled
 * organization's deletion. It is the real time, except in tests, which move it to check what happens days or months
 * later without waiting (setClock). The database's own now() is not used for those decisions, so one clock rules.
 */
let source: () => Date = () => new Date();

export const now = (): Date => source();

/** Tests only: make now() answer fn(); null goes back to the real time. */
export function setClock(fn: (() => Date) | null): void {
  source = fn ?? (() => new Date());
}
