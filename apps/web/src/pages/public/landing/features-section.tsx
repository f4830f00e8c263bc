import {
  BookOpen,
  ChartColumn,
  CreditCard,
  DoorOpen,
  Inbox,
  type LucideIcon,
  Mail,
  MessagesSquare,
  Palette,
  Paperclip,
  Workflow,
} from "lucide-react";
import { CardText, PageSection } from "../site/section.tsx";

interface Feature {
  name: string;
  text: string;
  Icon: LucideIcon;
}

const CORE: Feature[] = [
  {
    name: "Ticketing",
    text: "Every email, chat and form becomes a ticket with a status, a priority and an owner. See what needs you first, reply to the customer or leave an internal note for the team.",
    Icon: Inbox,
  },
  {
    name: "Live chat with AI",
    text: "Talk to visitors while they are on your site. The AI assistant answers first from your knowledge base, shows how sure it is, and hands the chat to an agent when it should.",
    Icon: MessagesSquare,
  },
];

const MORE: Feature[] = [
  {
    name: "Knowledge base",
    text: "Write an answer once. Customers find it themselves, and the assistant cites it.",
    Icon: BookOpen,
  },
  {
    name: "Customer portal",
    text: "Customers follow their own tickets and search your help center in one place.",
    Icon: DoorOpen,
  },
  {
    name: "Automation rules",
    text: "Route, prioritize and tag tickets on the events you choose, so routine work does itself.",
    Icon: Workflow,
  },
  {
    name: "Analytics",
    text: "Ticket volume, resolution times and trends, with what the assistant solved on its own.",
    Icon: ChartColumn,
  },
  {
    name: "Billing",
    text: "One monthly plan, managed from one screen. Upgrade when the team grows.",
    Icon: CreditCard,
  },
  {
    name: "File attachments",
    text: "Screenshots, invoices and logs stay with the ticket they belong to.",
    Icon: Paperclip,
  },
  {
    name: "Email inbox import",
    text: "Bring your support inbox and its history along; replies thread back into the right ticket.",
    Icon: Mail,
  },
  {
    name: "Branding customization",
    text: "Your logo and colors on the portal, the help center and the chat widget.",
    Icon: Palette,
  },
];

export function FeaturesSection() {
  return (
    <PageSection
      id="features"
      titleId="features-title"
      className="scroll-mt-16 bg-white py-20 sm:py-24"
      eyebrow="Features"
      title="Everything a small support team needs, in one place"
      lead="No add-ons to buy and no integrations to babysit. Start with the inbox and grow into the rest."
    >
      <div className="mt-14 grid gap-6 lg:grid-cols-2">
        {CORE.map(({ name, text, Icon }) => (
          <div key={name} className="rounded-2xl border border-indigo-100 bg-indigo-50/50 p-6 sm:p-8">
            <span className="flex size-11 items-center justify-center rounded-xl bg-indigo-600 text-white">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h3 className="mt-5 text-xl font-semibold text-slate-900">{name}</h3>
            <p className="mt-2 text-base text-slate-600">{text}</p>
          </div>
        ))}
      </div>

      <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {MORE.map(({ name, text, Icon }) => (
          <li key={name} className="rounded-2xl border border-slate-200 p-6">
            <span className="flex size-10 items-center justify-center rounded-lg bg-slate-100 text-indigo-600">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <CardText title={name} text={text} size="sm" titleClassName="mt-4" />
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
