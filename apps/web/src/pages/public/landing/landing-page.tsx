import { PageMeta } from "../site/page-meta.tsx";
import { SiteLayout } from "../site/site-layout.tsx";
import { ClosingSection } from "./closing-section.tsx";
import { FeaturesSection } from "./features-section.tsx";
import { Hero } from "./hero.tsx";
import { HowItWorks } from "./how-it-works.tsx";
import { PricingSection } from "./pricing-section.tsx";

/** The landing page, at / and /homepage. */
export function LandingPage() {
  return (
    <SiteLayout>
      <PageMeta
        title="Cove · The help desk for small support teams"
        description="Tickets, live chat and an AI assistant that answers from your own help articles, for teams of 1 to 15. Set up in 5 minutes; free for 14 days, no credit card needed."
      />
      <Hero />
      <FeaturesSection />
      <HowItWorks />
      <PricingSection />
      <ClosingSection />
    </SiteLayout>
  );
}
