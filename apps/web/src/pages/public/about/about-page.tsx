import { PLANS, TRIAL_DAYS } from "@cove/contract/constants.ts";
import { Bot, Inbox, type LucideIcon, ShieldCheck, Store, Users, Wallet } from "lucide-react";
import { Figures } from "../site/figures.tsx";
import { PageMeta } from "../site/page-meta.tsx";
import { CardText, Container, PageSection, PageTitle, PageTop, SectionHeading } from "../site/section.tsx";
import { SiteLayout } from "../site/site-layout.tsx";
import { TrialLinks } from "../site/trial-links.tsx";

const AUDIENCES: { title: string; text: string; Icon: LucideIcon }[] = [
  {
    title: "Founders and owners",
    text: "You answer customers yourself, often after hours. Cove keeps every conversation in one place and lets the assistant take the questions you answer ten times a week.",
    Icon: Store,
  },
  {
    title: "Support teams of 2 to 15",
    text: "You share one inbox and need to know who is on what. Assignment, internal notes and automation keep everyone in step without a manager in the middle.",
    Icon: Users,
  },
  {
    title: "Teams that outgrew a shared mailbox",
    text: "Threads get lost and customers ask twice. Tickets, a help center and a customer portal give every request a home and an owner.",
    Icon: Inbox,
  },
];

const PRINCIPLES: { title: string; text: string; Icon: LucideIcon }[] = [
  {
    title: "One place for every conversation",
    text: "Email, live chat and the customer portal land in the same inbox, with the same history.",
    Icon: Inbox,
  },
  {
    title: "AI that knows its limits",
    text: "The assistant answers from your own articles, says how sure it is, and hands over when it is not.",
    Icon: Bot,
  },
  {
    title: "Priced for small teams",
    text: `Plans from $${PLANS.starter.price} per agent a month, a ${TRIAL_DAYS}-day trial, no setup fee and no annual contract.`,
    Icon: Wallet,
  },
  {
    title: "Your data stays yours",
    text: "Kept apart from every other company's, exportable at any time, and deleted when you ask.",
    Icon: ShieldCheck,
  },
];

const FIGURES = [
  { figure: "5 min", label: "from sign-up to a working help desk" },
  { figure: "~50%", label: "lower cost than traditional help desk platforms" },
  { figure: "80%+", label: "of requests resolved by the AI assistant" },
];

export function AboutPage() {
  return (
    <SiteLayout>
      <PageMeta
        title="About · Cove"
        description="Cove is help desk software for small businesses and support teams of 1 to 15: who it is for, why it exists and what it stands for."
      />
      <PageTop titleId="about-title" className="pt-16 pb-4 sm:pt-24 sm:pb-8">
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">About Cove</p>
        <PageTitle id="about-title" className="mt-2 max-w-4xl">
          Support software for the teams that do support between everything else
        </PageTitle>
        <p className="mt-6 max-w-2xl text-lg text-pretty text-slate-600">
          Most help desks are designed for departments of fifty, with the price and the setup to match. Cove is for the
          shop owner, the two-person support team and the operations lead who answers tickets between other jobs.
        </p>
      </PageTop>

      <PageSection
        titleId="audience-title"
        className="py-20 sm:py-24"
        eyebrow="Who it is for"
        title="Small teams with customers to look after"
      >
        <ul className="mt-14 grid gap-6 md:grid-cols-3">
          {AUDIENCES.map(({ title, text, Icon }) => (
            <li key={title} className="rounded-2xl border border-slate-200 p-6 sm:p-8">
              <Icon className="size-6 text-indigo-600" aria-hidden="true" />
              <CardText title={title} text={text} size="lg" titleClassName="mt-4" />
            </li>
          ))}
        </ul>
      </PageSection>

      <section aria-labelledby="why-title" className="bg-slate-50 py-20 sm:py-24">
        <Container className="grid gap-12 lg:grid-cols-2 lg:gap-16">
          <div>
            <SectionHeading
              id="why-title"
              align="left"
              eyebrow="Why we built it"
              title="Good support should not need a big budget"
            />
            <div className="mt-6 space-y-4 text-base leading-7 text-slate-600">
              <p>
                Small businesses win on service. They know their customers by name and fix problems quickly. Yet the
                tools they are offered either stop at a shared mailbox or charge for a dozen modules they will never
                open.
              </p>
              <p>
                We built Cove to close that gap: the parts of a serious help desk that a small team really uses, an AI
                assistant that takes the repetitive questions without pretending to know everything, and a price that
                makes sense for a team of three.
              </p>
            </div>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2">
            {PRINCIPLES.map(({ title, text, Icon }) => (
              <li key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <Icon className="size-5 text-indigo-600" aria-hidden="true" />
                <CardText title={title} text={text} size="sm" titleClassName="mt-3" />
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="figures-title" className="py-20 sm:py-24">
        <Container>
          <h2 id="figures-title" className="sr-only">
            Cove in figures
          </h2>
          <Figures figures={FIGURES} size="lg" className="grid gap-8 text-center sm:grid-cols-3" />
          <TrialLinks to="/demo" className="mt-16 flex flex-col items-center gap-3 sm:flex-row sm:justify-center">
            Watch the setup demo
          </TrialLinks>
        </Container>
      </section>
    </SiteLayout>
  );
}
