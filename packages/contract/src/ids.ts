/** A record id as Cove makes them: a UUID, in either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a text is a record id as Cove makes them (a UUID); anything else names no record and is simply not found. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
