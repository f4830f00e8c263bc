import { PLAN_IDS, PLANS, type PlanId } from "@cove/contract/constants.ts";
import { clsx } from "clsx";
import { Check } from "lucide-react";

/** The three plans (docs/product.md, "Plans and the trial"), "/month" as the billing page says; a card is a button that selects it. */
export function PlanCards({
  selected,
  current,
  onSelect,
}: {
  selected: PlanId | null;
  current?: PlanId | null;
  onSelect: (plan: PlanId) => void;
}) {
  return (
    <ul className="grid gap-4 md:grid-cols-3" aria-label="Plans">
      {PLAN_IDS.map((id) => {
        const plan = PLANS[id];
        const isSelected = selected === id;
        return (
          <li key={id}>
            <button
              type="button"
              onClick={() => onSelect(id)}
              aria-pressed={isSelected}
              className={clsx(
                "flex h-full w-full flex-col rounded-xl border bg-white p-5 text-left shadow-sm transition",
                "hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
                isSelected ? "border-indigo-600 ring-2 ring-indigo-600" : "border-slate-200",
              )}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="text-base font-semibold text-slate-900">{plan.name}</span>
                {current === id && (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                    Your trial's limits
                  </span>
                )}
              </span>
              <span className="mt-3">
                <span className="text-3xl font-bold text-slate-900">${plan.price}</span>
                <span className="text-sm text-slate-500">/month</span>
              </span>
              {/* The list takes the free height, so every card's button sits on the same line at the bottom. */}
              <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-600">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
              <span
                className={clsx(
                  "mt-5 inline-flex h-10 items-center justify-center rounded-md text-sm font-medium",
                  isSelected ? "bg-indigo-600 text-white" : "border border-slate-300 text-slate-700",
                )}
              >
                Choose {plan.name}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
