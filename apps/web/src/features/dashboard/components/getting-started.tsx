import type { OnboardingStep, OnboardingStepId } from "@cove/contract/onboarding.ts";
import { CircleCheck, X } from "lucide-react";
import { Link } from "react-router";
import { toastError } from "../../../lib/toast-error.ts";
import { useDismissOnboarding, useOnboarding } from "../api/onboarding.queries.ts";

interface StepText {
  title: string;
  detail: string;
  to: string;
}

/** What each step asks, why, and where it is done. */
export const STEP_TEXT: Record<OnboardingStepId, StepText> = {
  invite_teammate: {
    title: "Invite a teammate",
    detail: "Share the work: invite the people who answer your customers.",
    to: "/users",
  },
  connect_email: {
    title: "Connect your email",
    detail: "Forward your support address to Cove, or import a mailbox. Ticked when the first email arrives.",
    to: "/settings?tab=email",
  },
  add_widget: {
    title: "Add the chat widget to your website",
    detail: "Paste the snippet into your site. Ticked when a visitor starts the first chat.",
    to: "/ai-assistant#chat-widget",
  },
  write_articles: {
    title: "Write three help articles",
    detail: "Published articles fill your help center, and the AI assistant answers from them.",
    to: "/knowledge-base/new",
  },
  set_business_hours: {
    title: "Set your business hours",
    detail: "SLA targets in business hours count only the hours you are open.",
    to: "/automation#business-hours",
  },
};

function Step({ step }: { step: OnboardingStep }) {
  const text = STEP_TEXT[step.id];
  return (
    <li className="flex gap-3 px-4 py-3">
      {step.done ? (
        <CircleCheck className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
      ) : (
        <span className="mt-0.5 size-5 shrink-0 rounded-full border-2 border-slate-300" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <p className="text-sm">
          <Link
            to={text.to}
            className={
              step.done
                ? "font-medium text-slate-500 line-through decoration-slate-400 hover:text-slate-700"
                : "font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
            }
          >
            {text.title}
          </Link>
          <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
          {step.progress && !step.done && (
            <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
              {step.progress.count} of {step.progress.target}
            </span>
          )}
        </p>
        <p className="mt-0.5 text-sm text-slate-600">{text.detail}</p>
      </div>
    </li>
  );
}

/**
 * A new owner's first steps, each ticked by Cove when the organization has done it (GET /api/onboarding). Shown to
 * admins, who do them; it appears once loaded, below the rest of the dashboard, so nothing above it moves.
 */
export function GettingStarted() {
  const onboarding = useOnboarding();
  const dismiss = useDismissOnboarding();
  if (!onboarding.data || onboarding.data.dismissed) return null;
  const { steps } = onboarding.data;
  const done = steps.filter((s) => s.done).length;
  const allDone = done === steps.length;
  return (
    <section
      aria-labelledby="getting-started-heading"
      className="rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div>
          <h2 id="getting-started-heading" className="font-semibold text-slate-900">
            {allDone ? "You're all set" : "Getting started"}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">
            {allDone
              ? "Every first step is done. Your help desk is ready for your customers."
              : `${done} of ${steps.length} done`}
          </p>
          <div
            className="mt-2 h-1.5 w-40 overflow-hidden rounded-full bg-slate-100"
            role="progressbar"
            aria-label="Steps done"
            aria-valuemin={0}
            aria-valuemax={steps.length}
            aria-valuenow={done}
          >
            <div className="h-full rounded-full bg-emerald-500" style={{ width: `${(done / steps.length) * 100}%` }} />
          </div>
        </div>
        <button
          type="button"
          onClick={() =>
            dismiss.mutate(undefined, { onError: (error) => toastError(error, "Could not hide the checklist") })
          }
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          <X className="size-4" aria-hidden="true" />
          Dismiss
        </button>
      </div>
      <ol className="divide-y divide-slate-100">
        {steps.map((step) => (
          <Step key={step.id} step={step} />
        ))}
      </ol>
    </section>
  );
}
