import { ArrowRight } from "lucide-react";
import { CardText, PageSection } from "../site/section.tsx";
import { SiteLink } from "../site/site-nav.tsx";

const STEPS = [
  {
    title: "Create your account",
    text: "Name your company and invite a teammate or two. No card, no sales call.",
  },
  {
    title: "Connect your inbox",
    text: "Forward your support address or import from Gmail, Outlook or any IMAP mailbox.",
  },
  {
    title: "Switch on the assistant",
    text: "Add a few help articles. The assistant starts answering and hands over what it cannot.",
  },
];

export function HowItWorks() {
  return (
    <PageSection
      titleId="how-title"
      className="border-t border-slate-200 bg-white py-20 sm:py-24"
      eyebrow="How it works"
      title="From sign-up to first answer in five minutes"
      lead="Cove is built to be set up by the person who answers the tickets, not by a consultant."
    >
      <ol className="mt-14 grid gap-8 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="relative">
            <span className="flex size-10 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
              {index + 1}
            </span>
            <CardText title={step.title} text={step.text} size="lg" titleClassName="mt-4" />
          </li>
        ))}
      </ol>
      <p className="mt-12 text-center">
        <SiteLink
          to="/demo"
          className="inline-flex items-center gap-1.5 rounded-md text-base font-semibold text-indigo-700 hover:text-indigo-600"
        >
          Watch the four-minute setup demo
          <ArrowRight className="size-4" aria-hidden="true" />
        </SiteLink>
      </p>
    </PageSection>
  );
}
