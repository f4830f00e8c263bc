import { clsx } from "clsx";
import { CircleCheck, type LucideIcon, Mail, Palette, Play, Rocket, RotateCcw, UserPlus, Users } from "lucide-react";
import { useEffect, useReducer } from "react";
import { BackHomeLink } from "../site/back-home-link.tsx";
import { ctaClasses } from "../site/cta.ts";
import { PageMeta } from "../site/page-meta.tsx";
import { Container, PageTitle, PageTop } from "../site/section.tsx";
import { SiteLayout } from "../site/site-layout.tsx";
import { SiteLink } from "../site/site-nav.tsx";
import {
  currentStepIndex,
  DEMO_STEPS,
  DEMO_TOTAL,
  demoReducer,
  formatClock,
  initialDemo,
  progressPercent,
  stepProgress,
  TICK_MS,
} from "./demo-machine.ts";

// One icon per step, in DEMO_STEPS order.
const STEP_ICONS: LucideIcon[] = [UserPlus, Users, Mail, Palette, Rocket];

export function DemoPage() {
  const [{ status, elapsed }, dispatch] = useReducer(demoReducer, initialDemo);

  useEffect(() => {
    if (status !== "running") return;
    const timer = setInterval(() => dispatch({ type: "tick" }), TICK_MS);
    return () => clearInterval(timer);
  }, [status]);

  const percent = progressPercent(elapsed);
  const current = currentStepIndex(elapsed);
  const currentStep = DEMO_STEPS[current];

  return (
    <SiteLayout>
      <PageMeta
        title="Setup demo · Cove"
        description="Watch a new team set up Cove in four minutes: account, team size, email, branding and launch, step by step."
      />
      <PageTop titleId="demo-title" className="pt-10 pb-12 sm:pt-14">
        <BackHomeLink />
        <PageTitle id="demo-title" className="mt-6 max-w-3xl">
          See Cove set up in four minutes
        </PageTitle>
        <p className="mt-4 max-w-2xl text-lg text-slate-600">
          Follow a new team from sign-up to a live help desk. The demo plays the five setup steps in fast forward: four
          minutes of setup in about twelve seconds.
        </p>

        <div className="mt-10 flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:p-6">
          <button
            type="button"
            onClick={() => dispatch({ type: status === "running" ? "reset" : "start" })}
            className={ctaClasses(status === "running" ? "secondary" : "primary", "md", "shrink-0 sm:w-40")}
          >
            {status === "running" ? (
              <RotateCcw className="size-4" aria-hidden="true" />
            ) : (
              <Play className="size-4" aria-hidden="true" />
            )}
            {status === "running" ? "Reset Demo" : "Start Demo"}
          </button>
          <div className="min-w-0 flex-1">
            <div className="flex items-baseline justify-between gap-4 text-sm">
              <p
                role="timer"
                aria-label="Demo clock"
                className="font-mono text-base font-semibold text-slate-900 tabular-nums"
              >
                {formatClock(elapsed)} / {formatClock(DEMO_TOTAL)}
              </p>
              <p className="font-medium text-slate-600 tabular-nums">{percent}%</p>
            </div>
            <div
              role="progressbar"
              aria-label="Demo progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full rounded-full bg-indigo-600" style={{ width: `${percent}%` }} />
            </div>
          </div>
        </div>
        {/* Screen readers hear each new step once, not every tick. */}
        <p aria-live="polite" className="sr-only">
          {status === "running" && currentStep
            ? `Step ${current + 1} of ${DEMO_STEPS.length}: ${currentStep.title}`
            : ""}
        </p>
      </PageTop>

      <Container className="pb-20">
        <ol aria-label="Setup steps" className="grid gap-4 lg:grid-cols-5">
          {DEMO_STEPS.map((step, index) => {
            const progress = stepProgress(index, elapsed);
            const Icon = STEP_ICONS[index] ?? Rocket;
            return (
              <li
                key={step.title}
                aria-current={progress === "current" ? "step" : undefined}
                className={clsx(
                  "flex flex-col rounded-2xl border p-5 transition-colors",
                  progress === "current" && "border-indigo-600 bg-indigo-50 shadow-md ring-1 ring-indigo-600",
                  progress === "completed" && "border-emerald-200 bg-emerald-50/50",
                  progress === "upcoming" && "border-slate-200 bg-white",
                )}
              >
                <div className="flex items-center justify-between">
                  <span
                    className={clsx(
                      "flex size-10 items-center justify-center rounded-lg",
                      progress === "current" ? "bg-indigo-600 text-white" : "bg-slate-100 text-indigo-600",
                    )}
                  >
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  {progress === "completed" && (
                    <span className="inline-flex items-center gap-1 text-sm font-medium text-emerald-700">
                      <CircleCheck className="size-5" aria-hidden="true" />
                      Done
                    </span>
                  )}
                  {progress === "current" && (
                    <span className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white">
                      {status === "running" ? "In progress" : "Up first"}
                    </span>
                  )}
                </div>
                <p className="mt-4 text-xs font-medium text-slate-600">
                  Step {index + 1} · {formatClock(step.seconds)}
                </p>
                <h2 className="mt-1 text-base font-semibold text-slate-900">{step.title}</h2>
                <p className="mt-1 text-sm font-medium text-slate-700">{step.description}</p>
                <p className="mt-2 text-sm text-slate-600">{step.details}</p>
              </li>
            );
          })}
        </ol>

        <div aria-live="polite">
          {status === "finished" && (
            <section
              aria-labelledby="demo-done-title"
              className="mt-10 flex flex-col gap-6 rounded-2xl bg-slate-900 p-6 text-white sm:p-10 lg:flex-row lg:items-center lg:justify-between"
            >
              <div className="flex gap-4">
                <CircleCheck className="size-8 shrink-0 text-emerald-400" aria-hidden="true" />
                <div>
                  <h2 id="demo-done-title" className="text-2xl font-bold tracking-tight">
                    Your help desk is live
                  </h2>
                  <p className="mt-2 max-w-xl text-slate-300">
                    That is the whole setup: four minutes from sign-up to a working help desk with the AI assistant
                    answering. Yours can be next.
                  </p>
                </div>
              </div>
              <div className="flex flex-col gap-3 sm:flex-row">
                <SiteLink to="/register" className={ctaClasses("inverse", "md")}>
                  Start your free trial
                </SiteLink>
                <button
                  type="button"
                  onClick={() => dispatch({ type: "start" })}
                  className={ctaClasses("outline-inverse", "md")}
                >
                  <RotateCcw className="size-4" aria-hidden="true" />
                  Watch Demo Again
                </button>
              </div>
            </section>
          )}
        </div>
      </Container>
    </SiteLayout>
  );
}
