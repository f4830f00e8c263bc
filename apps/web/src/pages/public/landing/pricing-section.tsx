import { PLAN_IDS, PLANS, TRIAL_DAYS } from "@cove/contract/constants.ts";
import { clsx } from "clsx";
import { Check } from "lucide-react";
import { ctaClasses } from "../site/cta.ts";
import { PageSection } from "../site/section.tsx";
import { SiteLink } from "../site/site-nav.tsx";

const TAGLINES = {
  starter: "For a founder or a small team answering its first customers.",
  growth: "For teams adding live chat and the AI assistant to their day.",
  business: "For busy teams that need room to scale and their own brand.",
} as const;

const FEATURED = "growth";

export function PricingSection() {
  return (
    <PageSection
      id="pricing"
      titleId="pricing-title"
      className="scroll-mt-16 bg-slate-50 py-20 sm:py-24"
      eyebrow="Pricing"
      title="Simple plans that grow with your team"
      lead={`Priced per agent, per month. Every plan starts with a ${TRIAL_DAYS}-day free trial, no credit card needed.`}
    >
      <ul className="mx-auto mt-14 grid max-w-md gap-6 lg:max-w-none lg:grid-cols-3">
        {PLAN_IDS.map((id) => {
          const plan = PLANS[id];
          const featured = id === FEATURED;
          const titleId = `plan-${id}`;
          return (
            <li
              key={id}
              className={clsx(
                "relative flex flex-col rounded-2xl bg-white p-8",
                featured ? "border-2 border-indigo-600 shadow-xl shadow-indigo-900/10" : "border border-slate-200",
              )}
            >
              {featured && (
                <p className="absolute -top-3 left-8 rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">
                  Most popular
                </p>
              )}
              <h3 id={titleId} className="text-lg font-semibold text-slate-900">
                {plan.name}
              </h3>
              <p className="mt-2 min-h-12 text-sm text-slate-600">{TAGLINES[id]}</p>
              <p className="mt-6 flex items-baseline gap-1">
                <span className="text-5xl font-bold tracking-tight text-slate-900">${plan.price}</span>
                <span className="text-sm font-medium text-slate-600">/month per agent</span>
              </p>
              <SiteLink
                to={`/register?plan=${id}`}
                aria-describedby={titleId}
                className={ctaClasses(featured ? "primary" : "secondary", "md", "mt-8 w-full")}
              >
                Start Free Trial
              </SiteLink>
              <ul className="mt-8 space-y-3 text-sm text-slate-700">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-3">
                    <Check className="mt-0.5 size-4 shrink-0 text-indigo-600" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </PageSection>
  );
}
