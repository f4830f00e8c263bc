/**
 * Turns what a person types into a PostgreSQL tsquery: words are ANDed, the last one matches as a prefix (so results
 * follow the typing), and anything that is not a letter, digit or part of an email address is dropped, so no input can
 * be a tsquery syntax error.
 */
export function toTsQuery(search: string): string | null {
  const words = search
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}@._-]+/u)
    .map((w) => w.replace(/^[@._-]+|[@._-]+$/g, ""))
    .filter((w) => w.length > 0)
    .slice(0, 12);
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(" & ");
}

/** "#123" or "123" names a ticket number. */
export function ticketNumberIn(search: string): number | null {
  const match = /^#?(\d{1,9})$/.exec(search.trim());
  return match?.[1] ? Number.parseInt(match[1], 10) : null;
}
