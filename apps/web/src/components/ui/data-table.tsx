import { clsx } from "clsx";
import type { ReactNode } from "react";
import { type Column, TableHead } from "./table-head.tsx";

interface DataTableProps {
  columns: Column[];
  /** Smaller text and padding, for a table inside a panel of its own (a webhook's deliveries). */
  dense?: boolean;
  /** The rows (`tr`). */
  children: ReactNode;
}

/** A table of records in a card: a header row, rows divided by a line, and sideways scrolling on a narrow screen. */
export function DataTable({ columns, dense = false, children }: DataTableProps) {
  return (
    <div className="overflow-x-auto">
      <table className={clsx("w-full text-left", dense ? "text-xs" : "text-sm")}>
        <TableHead
          className={dense ? "text-slate-500 uppercase" : "text-xs text-slate-500 uppercase"}
          cellClassName={dense ? "px-3 py-2 font-medium" : "px-5 py-2 font-medium"}
          columns={columns}
        />
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
