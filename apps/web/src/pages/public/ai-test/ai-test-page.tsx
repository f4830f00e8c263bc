import type { AiResponseAnswer, ConversationTurn } from "@cove/contract/ai.ts";
import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { BookOpen, Gauge, Info, UserRound } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { askAssistant, fetchDemo, rateAnswer } from "../../../features/ai/api/ai.api.ts";
import { AssistantChat, type ChatReply } from "../../../features/ai/components/assistant-chat.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { BackHomeLink } from "../site/back-home-link.tsx";
import { ctaClasses } from "../site/cta.ts";
import { PageMeta } from "../site/page-meta.tsx";
import { PageTitle, PageTop } from "../site/section.tsx";
import { SiteLayout } from "../site/site-layout.tsx";
import { SiteLink } from "../site/site-nav.tsx";

export const QUICK_QUESTIONS = [
  "How do I return an item?",
  "Where is my order?",
  "How do I reset my password?",
  "Do you ship internationally?",
  "Can I talk to a person?",
] as const;

export const WELCOME =
  "Hi! I'm the AI assistant of Acme Outdoor Co., Cove's demo store. Ask me anything a customer might ask: I answer from Acme's help articles and tell you how sure I am.";

export const CANNED_NOTE = "Sample reply: the assistant could not be reached";

/**
 * The spec's fallback when the call fails: a local reply, clearly marked, that promises nothing about any policy.
 * Asking for a person still gets the hand-off, which needs no knowledge base.
 */
export function cannedReply(message: string): AiResponseAnswer {
  const wantsPerson = /\b(person|human|agent|someone|somebody)\b/i.test(message);
  return wantsPerson
    ? {
        response: "Of course. I'll connect you with a person from our team.",
        confidence: 1,
        suggestedActions: ["Talk to a human"],
        sources: [],
        handoff: true,
      }
    : {
        response:
          "I can't reach the assistant right now, so I can't look this up in Acme's help articles. Please try again in a moment, or ask for a person.",
        confidence: 0,
        suggestedActions: ["Try again", "Talk to a human"],
        sources: [],
        handoff: true,
      };
}

/** The page's word for a server without the demo organization (docs/product.md, "The demo organization"). */
export const NO_DEMO_TITLE = "The demo is not available here";

/**
 * Whether the server has the demo organization: asked once on arrival, so a visitor is told plainly instead of typing
 * a question first; "unknown" (still asking, or the question failed) shows the chat as usual.
 */
function useDemoAvailability() {
  const [state, setState] = useState<{ available: boolean | null; message: string }>({
    available: null,
    message: DEMO_UNAVAILABLE,
  });
  useEffect(() => {
    const controller = new AbortController();
    fetchDemo(controller.signal)
      // A question answered "no demo" before this arrived is the newer word: a late "available" does not undo it.
      .then((demo) =>
        setState((now) =>
          now.available === false ? now : { available: demo.available, message: demo.message ?? DEMO_UNAVAILABLE },
        ),
      )
      .catch(() => {});
    return () => controller.abort();
  }, []);
  const unavailable = useCallback((message: string) => setState({ available: false, message }), []);
  return { ...state, unavailable };
}

function NoDemo({ message }: { message: string }) {
  return (
    <section
      aria-labelledby="no-demo-title"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-6 text-slate-800 shadow-sm"
    >
      <h2 id="no-demo-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Info className="size-5 shrink-0 text-amber-600" aria-hidden="true" />
        {NO_DEMO_TITLE}
      </h2>
      <p className="mt-3 text-sm">{message}</p>
      <p className="mt-3 text-sm">
        Start a free trial to try the assistant on your own help articles: it answers from the articles you publish.
      </p>
    </section>
  );
}

const POINTS = [
  { icon: BookOpen, text: "Answers only from published help articles, and links the ones it used." },
  { icon: Gauge, text: "Shows how confident it is: a calibrated estimate, measured on held-out questions." },
  { icon: UserRound, text: "Hands off to a person when no article answers, or when you ask for one." },
];

export function AiTestPage() {
  const demo = useDemoAvailability();
  const { unavailable } = demo;
  const askDemo = useCallback(
    async (message: string, conversation: ConversationTurn[]): Promise<ChatReply> => {
      try {
        // Anonymous on purpose: the demo answers from the demo organization even for a signed-in visitor.
        const answer = await askAssistant(
          { message, customerInfo: { plan: "demo" }, conversation },
          { anonymous: true },
        );
        return { answer };
      } catch (error) {
        if (error instanceof ApiError && error.code === "DEMO_UNAVAILABLE") unavailable(error.message);
        return { answer: cannedReply(message), note: CANNED_NOTE };
      }
    },
    [unavailable],
  );
  return (
    <SiteLayout>
      <PageMeta
        title="Try the AI assistant · Cove"
        description="Ask Cove's AI assistant a customer question: it answers from the demo store's help articles, shows its confidence and sources, and hands off to a person when unsure."
      />
      <PageTop titleId="ai-test-title" className="pt-10 pb-16 sm:pt-14">
        <BackHomeLink />
        <div className="mt-6 grid gap-10 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <PageTitle id="ai-test-title">Try the AI assistant</PageTitle>
            <p className="mt-4 text-lg text-slate-600">
              {demo.available === false
                ? "Cove's AI assistant answers your customers from your own help articles, and hands off to your team when it is unsure."
                : "You are a customer of Acme Outdoor Co., our demo store. Ask about returns, orders, shipping or your account, or pick a quick question."}
            </p>
            <ul className="mt-6 space-y-3">
              {POINTS.map(({ icon: Icon, text }) => (
                <li key={text} className="flex gap-3 text-sm text-slate-700">
                  <Icon className="mt-0.5 size-5 shrink-0 text-indigo-600" aria-hidden="true" />
                  {text}
                </li>
              ))}
            </ul>
            <SiteLink to="/register" className={ctaClasses("primary", "md", "mt-8")}>
              Start Free Trial
            </SiteLink>
          </div>
          <div className="min-w-0 lg:col-span-3">
            {demo.available === false ? (
              <NoDemo message={demo.message} />
            ) : (
              <AssistantChat
                label="Conversation with the AI assistant"
                greeting={WELCOME}
                quickQuestions={QUICK_QUESTIONS}
                ask={askDemo}
                rate={(answerId, helpful) => rateAnswer({ answerId, helpful }, { anonymous: true })}
                placeholder="Type your question and press Enter…"
              />
            )}
          </div>
        </div>
      </PageTop>
    </SiteLayout>
  );
}
