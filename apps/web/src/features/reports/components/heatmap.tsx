/** White to indigo in five steps; the step's number is also written in the cell, so colour is never the only cue. */
const SCALE = [
  "bg-white text-slate-500",
  "bg-indigo-100 text-indigo-900",
  "bg-indigo-300 text-indigo-950",
  "bg-indigo-600 text-white",
  "bg-indigo-800 text-white",
];

export function shade(value: number, max: number): string {
  if (value <= 0 || max <= 0) return SCALE[0] ?? "";
  const step = Math.min(SCALE.length - 1, Math.ceil((value / max) * (SCALE.length - 1)));
  return SCALE[step] ?? "";
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);

const hourLabel = (h: number) => String(h).padStart(2, "0");

/**
 * The busiest hours: a real table (weekdays down, the 24 hours across), each cell's count written in it and shaded by
 * how busy it is. It scrolls sideways inside its card on a phone; the scrolling box takes the keyboard focus.
 */
export function Heatmap({
  caption,
  weekdays,
  values,
}: {
  caption: string;
  /** Row labels, Monday first. */
  weekdays: readonly string[];
  /** values[weekday][hour]. */
  values: readonly (readonly number[])[];
}) {
  const max = Math.max(0, ...values.flat());
  return (
    <div className="space-y-2">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable from the keyboard (WCAG 2.1.1). */}
      <section tabIndex={0} aria-label={caption} className="max-w-full overflow-x-auto rounded-md">
        <table className="min-w-max border-separate border-spacing-0.5 text-xs">
          <caption className="pb-2 text-left text-xs text-slate-500">{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="px-1 text-left font-medium text-slate-600">
                <span className="sr-only">Day</span>
              </th>
              {HOURS.map((h) => (
                <th key={h} scope="col" className="w-7 text-center font-medium text-slate-600 tabular-nums">
                  <abbr title={`${hourLabel(h)}:00 to ${hourLabel(h)}:59`} className="no-underline">
                    {hourLabel(h)}
                  </abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weekdays.map((day, d) => (
              <tr key={day}>
                <th scope="row" className="pr-2 text-left font-medium whitespace-nowrap text-slate-700">
                  {day}
                </th>
                {HOURS.map((h) => {
                  const value = values[d]?.[h] ?? 0;
                  return (
                    <td
                      key={h}
                      className={`h-7 w-7 rounded-sm text-center tabular-nums ring-1 ring-slate-100 ${shade(value, max)}`}
                    >
                      {value}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="flex items-center gap-2 text-xs text-slate-600" aria-hidden="true">
        <span>Fewer</span>
        {SCALE.map((c) => (
          <span key={c} className={`size-4 rounded-sm ring-1 ring-slate-200 ${c}`} />
        ))}
        <span>More</span>
      </div>
    </div>
  );
}
