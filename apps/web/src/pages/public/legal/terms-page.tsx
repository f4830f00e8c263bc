import { TRIAL_DAYS } from "@cove/contract/constants.ts";
import { SiteLink } from "../site/site-nav.tsx";
import { LegalPage, type LegalSection, MailLink } from "./legal-page.tsx";

const SECTIONS: LegalSection[] = [
  {
    id: "agreeing-to-these-terms",
    title: "Agreeing to these terms",
    body: (
      <>
        <p>
          These terms are the agreement between Cove and the organization that signs up for it ("you"). By creating an
          account or using Cove you accept them on behalf of that organization, and you confirm that you are allowed to
          do so.
        </p>
        <p>
          You must be at least <strong>18 years old</strong> to create an account or to accept these terms.
        </p>
      </>
    ),
  },
  {
    id: "your-account",
    title: "Your account",
    body: (
      <ul>
        <li>Give accurate details when you sign up and keep them current.</li>
        <li>Keep passwords private. Each person on your team signs in with their own account.</li>
        <li>You are responsible for what happens in your workspace, including the actions of the people you invite.</li>
        <li>
          Tell us straight away at <MailLink address="security@cove.example" /> if you think someone has used your
          account without permission.
        </li>
      </ul>
    ),
  },
  {
    id: "trial-and-subscriptions",
    title: "Free trial and subscriptions",
    body: (
      <>
        <p>
          Every new workspace starts with a {TRIAL_DAYS}-day free trial. No card is needed. If the trial ends without a
          subscription, the workspace becomes read-only: you can still sign in, read and export, but not add new work.
        </p>
        <p>
          Subscriptions are billed monthly in US dollars at the price of the plan you choose, shown on our{" "}
          <SiteLink to="/#pricing">pricing</SiteLink>. You can cancel at any time; cancelling takes effect at the end of
          the period you have already paid for.
        </p>
      </>
    ),
  },
  {
    id: "payments-and-refunds",
    title: "Payments and refunds",
    body: (
      <>
        <p>
          Payments are processed by our card payment provider. Prices do not include taxes, which are added where the
          law requires them.
        </p>
        <p>
          We do not give automatic refunds for partial months. If something went wrong, ask us within{" "}
          <strong>30 days</strong> of the charge and we will look at your request case by case.
        </p>
      </>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use",
    body: (
      <>
        <p>Use Cove to support your own customers. Do not use it to:</p>
        <ul>
          <li>send spam or messages your recipients did not ask for;</li>
          <li>store or share content that is unlawful, or that infringes someone else's rights;</li>
          <li>upload malware, or try to reach data or accounts that are not yours;</li>
          <li>overload, probe or copy the service, or resell it without a written agreement with us.</li>
        </ul>
        <p>We may remove content or limit an account that breaks these rules, and we will tell you why.</p>
      </>
    ),
  },
  {
    id: "your-data",
    title: "Your data",
    body: (
      <>
        <p>
          What you and your customers put into Cove stays yours. You give us permission to store and process it only to
          run the service for you, as described in our <SiteLink to="/privacy">Privacy Policy</SiteLink>.
        </p>
        <p>
          You can export your data at any time. When an account ends, you have <strong>30 days</strong> to export it;
          after that we delete it.
        </p>
      </>
    ),
  },
  {
    id: "service-availability",
    title: "Service availability",
    body: (
      <>
        <p>
          We aim for <strong>99.9% uptime</strong> each month, not counting maintenance we announce in advance. This is
          a goal we work towards, not a guarantee of uninterrupted service.
        </p>
        <p>We improve Cove all the time. If we remove a feature that you rely on, we will tell you ahead of time.</p>
      </>
    ),
  },
  {
    id: "suspension-and-termination",
    title: "Suspension and termination",
    body: (
      <>
        <p>You can close your account whenever you like from the billing settings.</p>
        <p>
          We may suspend or close an account that seriously or repeatedly breaks these terms, or whose fees remain
          unpaid <strong>30 days</strong> after they are due. Before closing an account for unpaid fees we will remind
          you by email.
        </p>
      </>
    ),
  },
  {
    id: "limitation-of-liability",
    title: "Limitation of liability",
    body: (
      <>
        <p>
          Cove is provided as it is. To the extent the law allows, we are not liable for indirect or consequential
          losses such as lost profits, revenue or data.
        </p>
        <p>
          Our total liability for any claim is limited to the amount you paid us in the <strong>12 months</strong>{" "}
          before the event that gave rise to it.
        </p>
      </>
    ),
  },
  {
    id: "changes-and-contact",
    title: "Changes to these terms and contact",
    body: (
      <>
        <p>
          When we change these terms we will let you know by email or in the app. Changes take effect{" "}
          <strong>30 days</strong> after that notice; if you keep using Cove after that date, the new terms apply.
        </p>
        <p>
          Questions about these terms are welcome at <MailLink address="legal@cove.example" />.
        </p>
      </>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      description="The terms for using Cove: trial and subscriptions, refunds, acceptable use, your data, uptime, termination, liability and changes."
      updated="August 21, 2025"
      lead="The rules for using Cove, written to be read. They cover your account, paying for Cove, what you may use it for, what happens to your data, and what each of us can expect from the other."
      sections={SECTIONS}
    />
  );
}
