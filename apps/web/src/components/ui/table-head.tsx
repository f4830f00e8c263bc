/** A column of a table's header: its name, and where it differs from the others its own classes. */
export type Column = string | { label: string; className?: string; srOnly?: boolean };

interface TableHeadProps {
  columns: Column[];
  /** The classes of the header row's group (`thead`). */
  className: string;
  /** The classes of each column's cell, unless the column has its own. */
  cellClassName?: string;
}

/**
 * A table's header row. A column without a visible name (actions, a download) is named for screen readers only
 * (`srOnly`).
 */
export function TableHead({ columns, className, cellClassName }: TableHeadProps) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => {
          const { label, className: own, srOnly } = typeof column === "string" ? { label: column } : column;
          return (
            <th key={label} scope="col" className={own ?? cellClassName}>
              {srOnly ? <span className="sr-only">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
