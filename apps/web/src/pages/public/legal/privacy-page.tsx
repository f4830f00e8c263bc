import { CreditCard, Download, Lock, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { SiteLink } from "../site/site-nav.tsx";
import { LegalPage, type LegalSection, MailLink } from "./legal-page.tsx";

const PRIVACY_EMAIL = "privacy@cove.example";

const AT_A_GLANCE = [
  { Icon: ShieldCheck, text: "We never sell your data, or the data of your customers." },
  {
    Icon: CreditCard,
    text: "Card payments go through our payment provider; we keep only the last 4 digits and the billing address.",
  },
  { Icon: Lock, text: "Everything is encrypted: TLS 1.3 on the way, AES-256 where it is stored." },
  { Icon: Download, text: "You can export or delete your data, and we answer every request within 30 days." },
];

function RightsBox({ title, children, action }: { title: string; children: ReactNode; action: string }) {
  return (
    <div className="mt-6 rounded-xl border border-indigo-100 bg-indigo-50/60 p-5">
      <h3 className="mt-0!">{title}</h3>
      {children}
      <p>
        <SiteLink to="/login">{action}</SiteLink>
      </p>
    </div>
  );
}

const SECTIONS: LegalSection[] = [
  {
    id: "information-we-collect",
    title: "Information We Collect",
    body: (
      <>
        <p>We collect what we need to run your help desk, and nothing for advertising.</p>
        <ul>
          <li>
            <strong>Account details:</strong> your name, email address, organization, and password (stored only as a
            salted hash), plus a phone number and profile picture if you choose to add them.
          </li>
          <li>
            <strong>What you put into Cove:</strong> tickets and conversations, knowledge base articles, chat messages,
            settings and uploaded files.
          </li>
          <li>
            <strong>Billing details:</strong> card payments are processed by a third-party card provider. We store only
            the last 4 digits of the card and the billing address, never the full card number.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser and the pages used, kept in logs to keep the service
            secure and working.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "how-we-use-information",
    title: "How We Use Information",
    body: (
      <ul>
        <li>
          to provide Cove: store your tickets, deliver messages, and let the AI assistant answer from your articles;
        </li>
        <li>to bill your subscription and send receipts;</li>
        <li>to answer your support requests and tell you about changes to the service;</li>
        <li>to keep Cove secure, for instance by spotting unusual sign-in activity;</li>
        <li>to understand, in aggregate, which features are used so we can improve them.</li>
      </ul>
    ),
  },
  {
    id: "information-sharing",
    title: "Information Sharing",
    body: (
      <>
        <p>We do not sell personal information. We share it only:</p>
        <ul>
          <li>
            with service providers that help us run Cove (hosting, email delivery, card payments), under contracts that
            limit them to that work;
          </li>
          <li>when the law requires it, and then only what is required;</li>
          <li>with a buyer if Cove is ever sold, who would remain bound by this policy;</li>
          <li>with anyone else only when you ask us to.</li>
        </ul>
      </>
    ),
  },
  {
    id: "data-security",
    title: "Data Security",
    body: (
      <ul>
        <li>Connections to Cove are encrypted with TLS 1.3.</li>
        <li>Stored data is encrypted at rest with AES-256.</li>
        <li>Passwords are hashed with a unique salt; nobody at Cove can read them.</li>
        <li>Each organization's data is kept apart from every other organization's, checked on every request.</li>
        <li>
          Team members have role-based access: what each member can see and change depends on the role their
          organization gives them.
        </li>
        <li>
          Administrative access is protected by two-factor sign-in: a code from an authenticator app on top of the
          password. Every member can turn it on, and an organization can require it of its admins or of everyone.
        </li>
        <li>Only the staff who need it for their work can reach production systems, and that access is logged.</li>
      </ul>
    ),
  },
  {
    id: "data-retention",
    title: "Data Retention",
    body: (
      <>
        <p>We keep your data for as long as your account is open. If you cancel:</p>
        <ul>
          <li>
            for the first <strong>30 days</strong> you keep full access, so you can export everything;
          </li>
          <li>
            we then keep a limited copy for up to <strong>90 days</strong> in case you want to reactivate;
          </li>
          <li>after 90 days the data is deleted for good.</li>
        </ul>
        <p>
          Billing and tax records are the exception: the law requires us to keep them for <strong>7 years</strong>.
        </p>
      </>
    ),
  },
  {
    id: "your-rights",
    title: "Your Rights",
    body: (
      <>
        <p>
          You can ask to see, correct, export or delete the personal information we hold about you, or ask us to stop
          using it for a purpose. We answer every request within <strong>30 days</strong>. If you are a customer of a
          business that uses Cove, contact that business first: they decide what happens to their support records.
        </p>
        <RightsBox title="GDPR: people in the EU, EEA and UK" action="Sign in to make a GDPR request">
          <p>
            You have the right of access, rectification, erasure, restriction, portability and objection, and you can
            complain to your local data protection authority. We process account data to perform our contract with you,
            and technical data on the basis of our legitimate interest in a secure service.
          </p>
        </RightsBox>
        <RightsBox title="CCPA: California residents" action="Sign in to make a CCPA request">
          <p>
            You have the right to know what personal information we collect, to have it corrected or deleted, and not to
            be treated differently for using these rights. We do not sell or share personal information for advertising,
            so there is nothing to opt out of.
          </p>
        </RightsBox>
      </>
    ),
  },
  {
    id: "cookies-and-tracking",
    title: "Cookies & Tracking",
    body: (
      <p>
        Cove uses only what it needs to work: your browser's storage keeps you signed in, and a few essential settings
        are remembered between visits. There are no advertising cookies and no third-party trackers. Signed-in users can
        review these in their <SiteLink to="/login">cookie settings</SiteLink>.
      </p>
    ),
  },
  {
    id: "international-transfers",
    title: "International Transfers",
    body: (
      <p>
        Your data is held in data centers in the <strong>United States and the European Union</strong>. When it moves
        between them, it is protected by the European Commission's Standard Contractual Clauses and the security
        measures described above.
      </p>
    ),
  },
  {
    id: "childrens-privacy",
    title: "Children's Privacy",
    body: (
      <p>
        Cove is a tool for businesses and is not meant for anyone under <strong>16</strong>. We do not knowingly collect
        information from children; if we learn that we have, we delete it.
      </p>
    ),
  },
  {
    id: "policy-changes",
    title: "Policy Changes",
    body: (
      <p>
        If we make a material change to this policy, we will tell you by email or in the app at least{" "}
        <strong>30 days</strong> before it takes effect. The date at the top of this page shows when it last changed.
      </p>
    ),
  },
  {
    id: "contact-us",
    title: "Contact Us",
    body: (
      <p>
        Write to our privacy team at <MailLink address={PRIVACY_EMAIL} /> about this policy or your data. For anything
        else, our support team is at <MailLink address="support@cove.example" />.
      </p>
    ),
  },
];

function AtAGlance() {
  return (
    <aside aria-labelledby="glance-title" className="mb-12 rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
      <h2 id="glance-title" className="text-lg font-semibold text-slate-900">
        Privacy at a glance
      </h2>
      <ul className="mt-5 grid gap-5 sm:grid-cols-2">
        {AT_A_GLANCE.map(({ Icon, text }) => (
          <li key={text} className="flex gap-3 text-sm text-slate-700">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-600 shadow-sm">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            <span className="pt-1.5">{text}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      description="What Cove collects, why, who it is shared with, how it is protected and kept, and your rights under GDPR and CCPA."
      updated="August 21, 2025"
      lead="This policy explains what information Cove collects when you and your team use it, what we do with it, and the choices you have. We have kept it as short and plain as we can."
      summary={<AtAGlance />}
      sections={SECTIONS}
    />
  );
}
