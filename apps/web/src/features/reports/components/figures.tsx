export interface Figure {
  label: string;
  value: string;
  /** A second line under the value ("in business hours: 2.5 h"). */
  note?: string;
}

/** A section's headline figures: a term and its value each, two across, four when the card is wide (a container query:
 * the card's width, not the window's, decides). */
export function Figures({ items }: { items: readonly Figure[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 @2xl:grid-cols-4">
      {items.map((f) => (
        <div key={f.label} className="min-w-0 rounded-md bg-slate-50 p-3">
          <dt className="text-xs font-medium text-slate-600">{f.label}</dt>
          <dd className="mt-1 text-xl font-semibold tracking-tight text-slate-900 tabular-nums">{f.value}</dd>
          {f.note && <dd className="text-xs text-slate-600">{f.note}</dd>}
        </div>
      ))}
    </dl>
  );
}
