import type { ConversationTurn } from "@cove/contract/ai.ts";
import { Alert } from "../../../components/ui/alert.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useScrollToHash } from "../../../lib/scroll-to-hash.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { ChatShareCard, WidgetSnippetCard } from "../../chat/index.ts";
import { rateAnswer, useAiSettings, useAiStats, useAskAssistant } from "../api/ai.api.ts";
import { AssistantChat } from "../components/assistant-chat.tsx";
import { AssistantSettingsForm } from "../components/assistant-settings-form.tsx";
import { ResolutionCard } from "../components/resolution-card.tsx";
import { SuggestedQuestions } from "../components/suggested-questions.tsx";
import { ThresholdProposal } from "../components/threshold-proposal.tsx";
import { UnansweredQuestions } from "../components/unanswered-questions.tsx";

export const ASK_FAILED = "The assistant could not answer";

export function AiAssistantRoute() {
  const { user } = useAuth();
  const settings = useAiSettings();
  const stats = useAiStats();
  const ask = useAskAssistant();
  // The widget's snippet (#chat-widget, from Getting started) sits below the console and the figures: scroll once loaded.
  useScrollToHash(!settings.isPending && !stats.isPending);

  const askConsole = async (message: string, conversation: ConversationTurn[]) => ({
    answer: await ask.mutateAsync({ message, conversation }),
  });

  return (
    <div className="space-y-6">
      <PageHeader
        title="AI Assistant"
        lead="The assistant answers customers from your published knowledge-base articles, cites the ones it used, and hands the conversation to your team when it is not sure or when a customer asks for a person."
      />
      {settings.error && (
        <Alert>
          <p className="font-semibold">The assistant's settings could not be loaded</p>
          <p>{settings.error.message}</p>
        </Alert>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="console-title" className="min-w-0 space-y-3 lg:col-span-2">
          <div>
            <h2 id="console-title" className="text-base font-semibold text-slate-900">
              Test console
            </h2>
            <p className="text-sm text-slate-600">
              Ask what a customer would: you see the answer, its confidence and sources, and whether it would hand off.
              {settings.data && !settings.data.enabled && " The assistant is off, so every question is handed off."}
            </p>
          </div>
          {settings.data ? (
            <AssistantChat
              label="Test conversation with your assistant"
              greeting={settings.data.greeting}
              ask={askConsole}
              rate={(answerId, helpful) => rateAnswer({ answerId, helpful })}
              onError={(error) => toastError(error, ASK_FAILED)}
              placeholder="Ask your assistant a customer question…"
              heightClassName="h-[24rem] sm:h-[30rem]"
            />
          ) : (
            !settings.error && (
              <div className="flex h-40 items-center justify-center rounded-xl border border-slate-200 bg-white text-indigo-600">
                <Spinner label="Loading the assistant" />
              </div>
            )
          )}
        </section>
        <div className="min-w-0 space-y-6">
          <ResolutionCard stats={stats.data} error={stats.error} />
          <ChatShareCard />
          {user && <WidgetSnippetCard slug={user.organizationSlug} />}
          {settings.data && <AssistantSettingsForm settings={settings.data} canEdit={user?.role === "admin"} />}
        </div>
      </div>
      <ThresholdProposal canEdit={user?.role === "admin"} />
      <SuggestedQuestions canEdit={user?.role === "admin"} />
      <UnansweredQuestions canEdit={user?.role === "admin"} />
    </div>
  );
}
