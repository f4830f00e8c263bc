import type { ReactNode } from "react";

/** Figures ("12", "4.5", "92.5%", "") line up on the right; words on the left. */
const NUMERIC = /^-?[\d,.]*%?$/;

/**
 * A figure's table view: a real table (caption, column headers, each row's first cell its header) that a screen
 * reader walks and a person copies into a spreadsheet. It scrolls sideways inside its card on a phone; the scrolling
 * box takes the keyboard focus so it can be scrolled without a mouse.
 */
export function DataTable({
  caption,
  columns,
  rows,
  short = {},
}: {
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly ReactNode[])[];
  /** Shorter labels shown for long column names, so the header stays one line; the full name (the CSV's) stays the
   * header's accessible name and its tooltip. */
  short?: Readonly<Record<string, string>>;
}) {
  const numeric = (cell: ReactNode) => typeof cell === "string" && NUMERIC.test(cell);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable from the keyboard (WCAG 2.1.1).
    <section tabIndex={0} aria-label={caption} className="max-w-full overflow-x-auto rounded-md">
      <table className="w-full text-sm">
        <caption className="pb-2 text-left text-xs text-slate-500">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            {columns.map((c, j) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for one table.
                key={j}
                scope="col"
                title={short[c] ? c : undefined}
                aria-label={short[c] ? c : undefined}
                className={`px-3 py-2 align-bottom font-medium ${j > 0 && numeric(rows[0]?.[j]) ? "text-right" : ""}`}
              >
                {short[c] ?? c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are in the API's order and replaced as a whole.
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells follow the fixed columns.
                  <th key={j} scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-slate-800">
                    {cell}
                  </th>
                ) : (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells follow the fixed columns.
                    key={j}
                    className={`px-3 py-2 whitespace-nowrap text-slate-700 ${numeric(cell) ? "text-right tabular-nums" : ""}`}
                  >
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
