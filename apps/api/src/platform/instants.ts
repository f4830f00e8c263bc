/**
 * PostgreSQL's text of a UTC instant: `2026-11-30 12:34:56.123456+00` as a timestamptz column prints it, or
 * `2026-11-30T12:34:56.123456+00:00` as JSON writes it (microseconds, trailing zeros dropped, none when whole).
 */
const UTC_TEXT = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00(?::00)?$/;

/**
 * An instant as the API answers it (ISO 8601 in UTC, to the millisecond, as Date's toISOString writes it), from a Date
 * or from PostgreSQL's text of one. A UTC text (a session in UTC, as Cove's are unless the server says otherwise) is
 * rewritten as text: parsing it into a Date and printing that costs 1-2 µs, and a list page has 50 to 100 of them
 * (docs/benchmarks.md, issue 34). Any other text (another offset, a year past 9999) goes through Date, as before.
 * Fractions are cut to milliseconds, as Date does.
 */
export function isoInstant(value: Date | string): string {
  if (typeof value !== "string") return value.toISOString();
  const utc = UTC_TEXT.exec(value);
  if (!utc) return new Date(value).toISOString();
  const fraction = utc[3] === undefined ? "000" : `${utc[3]}00`.slice(0, 3);
  return `${utc[1]}T${utc[2]}.${fraction}Z`;
}
