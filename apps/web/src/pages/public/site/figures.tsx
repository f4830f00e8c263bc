import { clsx } from "clsx";

interface Figure {
  figure: string;
  label: string;
}

/**
 * The product's headline figures on a public page, each figure above its label (a description list, the label first
 * for screen readers); lg: a band of their own, md: under the landing page's opening text.
 */
export function Figures({ figures, size, className }: { figures: Figure[]; size: "lg" | "md"; className: string }) {
  const large = size === "lg";
  return (
    <dl className={className}>
      {figures.map(({ figure, label }) => (
        <div key={figure} className={clsx("flex flex-col-reverse justify-end", large ? "gap-2" : "gap-1")}>
          <dt className={clsx("text-slate-600", large ? "text-base" : "text-sm")}>{label}</dt>
          <dd
            className={clsx("font-bold tracking-tight", large ? "text-5xl text-indigo-600" : "text-3xl text-slate-900")}
          >
            {figure}
          </dd>
        </div>
      ))}
    </dl>
  );
}
