import type { ReactNode } from "react";

export interface Column<Row> {
  header: string;
  /** What the cell shows; numbers are right-aligned. */
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/**
 * A figure's table view: a real table (caption, column headers, the first cell of each row a row header) that a
 * screen reader walks and a person copies into a spreadsheet. It scrolls sideways inside its card on a phone; the
 * scrolling box takes the keyboard focus so it can be scrolled without a mouse.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable from the keyboard (WCAG 2.1.1).
    <div tabIndex={0} role="region" aria-label={caption} className="max-w-full overflow-x-auto rounded-md">
      <table className="w-full min-w-max text-sm">
        <caption className="pb-2 text-left text-xs text-slate-500">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            {columns.map((c) => (
              <th
                key={c.header}
                scope="col"
                className={`px-3 py-2 font-medium whitespace-nowrap ${c.numeric ? "text-right" : ""}`}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, i) => (
            <tr key={rowKey(row, i)}>
              {columns.map((c, j) =>
                j === 0 ? (
                  <th key={c.header} scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-slate-800">
                    {c.cell(row)}
                  </th>
                ) : (
                  <td
                    key={c.header}
                    className={`px-3 py-2 whitespace-nowrap text-slate-700 ${c.numeric ? "text-right tabular-nums" : ""}`}
                  >
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
