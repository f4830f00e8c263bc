import { Sparkles } from "lucide-react";
import { Figures } from "../site/figures.tsx";
import { Container } from "../site/section.tsx";
import { SiteLink } from "../site/site-nav.tsx";
import { TrialLinks } from "../site/trial-links.tsx";
import { HeroPreview } from "./hero-preview.tsx";

// The three marketing claims of the product (docs/product.md, "What Cove does").
const CLAIMS = [
  { figure: "5 min", label: "to set up your help desk" },
  { figure: "~50%", label: "lower cost than traditional help desk platforms" },
  { figure: "80%+", label: "of customer requests resolved by the AI assistant" },
];

export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white"
    >
      <Container className="grid items-center gap-14 py-16 sm:py-20 lg:grid-cols-[1.05fr_1fr] lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white px-3 py-1 text-sm font-medium text-indigo-700 shadow-sm">
            <Sparkles className="size-4" aria-hidden="true" />
            14-day free trial · No credit card needed
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Great support, without a big support team
          </h1>
          <p className="mt-6 max-w-xl text-lg text-pretty text-slate-600">
            Cove puts tickets, live chat and an AI assistant in one shared inbox for teams of 1 to 15. The assistant
            answers from your own help articles and passes anything tricky to a person.
          </p>
          <TrialLinks to="/demo" arrow className="mt-8 flex flex-col gap-3 sm:flex-row">
            Watch the setup demo
          </TrialLinks>
          <p className="mt-4 text-sm text-slate-600">
            Curious about the assistant?{" "}
            <SiteLink to="/ai-test" className="font-medium text-indigo-700 hover:underline">
              Ask it a question
            </SiteLink>{" "}
            · Already a customer?{" "}
            <SiteLink to="/login" className="font-medium text-indigo-700 hover:underline">
              Sign in
            </SiteLink>
          </p>
          <Figures
            figures={CLAIMS}
            size="md"
            className="mt-10 grid grid-cols-1 gap-6 border-t border-slate-200 pt-8 sm:grid-cols-3"
          />
        </div>
        <HeroPreview />
      </Container>
    </section>
  );
}
