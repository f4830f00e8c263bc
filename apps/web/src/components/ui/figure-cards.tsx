interface FigureCard {
  label: string;
  value: string | number;
}

/** A screen's headline figures, each a small card with its name above the figure (a description list). */
export function FigureCards({ cards, className }: { cards: FigureCard[]; className: string }) {
  return (
    <dl className={className}>
      {cards.map((c) => (
        <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
          <dt className="text-xs font-medium text-slate-500 sm:text-sm">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900">{c.value}</dd>
        </div>
      ))}
    </dl>
  );
}
