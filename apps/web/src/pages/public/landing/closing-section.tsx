import { TRIAL_DAYS } from "@cove/contract/constants.ts";
import { ChevronDown } from "lucide-react";
import { Container, PageSection } from "../site/section.tsx";
import { TrialLinks } from "../site/trial-links.tsx";

const QUESTIONS = [
  {
    q: "Do I need a credit card to start?",
    a: `No. The trial lasts ${TRIAL_DAYS} days with everything in the Growth plan, and you only enter card details when you decide to subscribe.`,
  },
  {
    q: "What happens when the trial ends?",
    a: "If you have not subscribed, your workspace becomes read-only: you can still sign in, read every ticket and export your data. Subscribe at any time to pick up where you left off.",
  },
  {
    q: "How does the AI assistant know when to hand over?",
    a: "It answers only from your own help articles, reports how confident it is, and passes the conversation to an agent when it is unsure or when the customer asks for a person.",
  },
  {
    q: "Can we leave and take our data with us?",
    a: "Yes. Export your tickets and articles whenever you like. After cancelling you keep full access for 30 days to export, and everything is deleted after 90 days.",
  },
];

export function ClosingSection() {
  return (
    <>
      <PageSection
        titleId="faq-title"
        className="bg-white py-20 sm:py-24"
        width="narrow"
        eyebrow="Questions"
        title="Good to know before you start"
      >
        <div className="mt-12 divide-y divide-slate-200 border-y border-slate-200">
          {QUESTIONS.map(({ q, a }) => (
            <details key={q} className="group py-5">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md text-base font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
                {q}
                <ChevronDown
                  className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <p className="mt-3 text-base text-slate-600">{a}</p>
            </details>
          ))}
        </div>
      </PageSection>

      <section aria-labelledby="cta-title" className="bg-indigo-600">
        <Container className="flex flex-col items-start gap-8 py-16 sm:py-20 lg:flex-row lg:items-center lg:justify-between">
          <div className="max-w-2xl">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
              Give your customers faster answers this week
            </h2>
            <p className="mt-3 text-lg text-indigo-100">
              Five minutes to set up, {TRIAL_DAYS} days free, and no card until you decide.
            </p>
          </div>
          <TrialLinks to="/ai-test" onDark className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            Try the AI assistant
          </TrialLinks>
        </Container>
      </section>
    </>
  );
}
