/**
 * The one CSV writer (RFC 4180): every cell quoted, quotes doubled, lines ended by CRLF. A value a spreadsheet would
 * run as a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, as OWASP's "CSV
 * Injection" advice says, so it shows as text. Used by the audit log's download and the reports' downloads.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** One CSV line of cells, with its line end. */
export const csvLine = (cells: readonly (string | number | null | undefined)[]): string =>
  `${cells.map(csvCell).join(",")}\r\n`;

/** A whole table: a header line, then a line per row. */
export const csvTable = (
  columns: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string => csvLine(columns) + rows.map(csvLine).join("");
