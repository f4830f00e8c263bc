import type { QuestionSuggestion } from "@cove/contract/ai.ts";
import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useReviewSuggestion, useReviewSuggestions, useSuggestions } from "../api/ai.api.ts";

export const REVIEW_FAILED = "The suggestion could not be saved";

/**
 * "Suggested by your team": questions customers asked that an agent answered with a link to a help-center article, or
 * whose answer from an article a chat visitor rated helpful ("rated").
 * Accepting one makes it an example question of that article, so the assistant answers it next time on its own.
 * Shown only when there is something to review.
 */
export function SuggestedQuestions({ canEdit }: { canEdit: boolean }) {
  const list = useSuggestions();
  const bulk = useReviewSuggestions();
  if (!list.data || list.data.suggestions.length === 0) return null;
  const all = list.data.suggestions;
  // One click for the whole list; the answer says what was added, skipped as a near-duplicate, or kept (full article).
  const acceptAll = () =>
    bulk.mutate(
      { ids: all.map((s) => s.id), action: "accept" },
      {
        onSuccess: (done) => toast.success(done.message),
        onError: (error) => toastError(error, REVIEW_FAILED),
      },
    );
  return (
    <section aria-labelledby="suggested-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="suggested-title" className="text-base font-semibold text-slate-900">
          Suggested by your team
        </h2>
        {canEdit && all.length > 1 && (
          <Button size="sm" onClick={acceptAll} pending={bulk.isPending}>
            Add all {all.length} to their articles
          </Button>
        )}
      </div>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Your agents answered these questions with a link to an article, or a visitor rated the assistant's answer from
        the article helpful.
        {canEdit
          ? " Accept one and the assistant will answer that question with the article next time."
          : " An administrator can add them to the articles."}{" "}
        A question like one the article already has is skipped; an article holds at most {KB_QUESTIONS_MAX} example
        questions, and a suggestion for a full one waits here until one is removed in the article's editor.
      </p>
      <ul className="mt-4 divide-y divide-slate-100">
        {list.data.suggestions.map((s) => (
          <li key={s.id} className="py-3">
            <SuggestionRow suggestion={s} canEdit={canEdit} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function SuggestionRow({ suggestion, canEdit }: { suggestion: QuestionSuggestion; canEdit: boolean }) {
  const review = useReviewSuggestion();
  const pending = review.isPending ? review.variables?.action : null;
  const act = (action: "accept" | "dismiss") =>
    review.mutate(
      { id: suggestion.id, action },
      {
        onSuccess: (done) => (action === "accept" ? toast.success(done.message) : undefined),
        onError: (error) => toastError(error, REVIEW_FAILED),
      },
    );
  const article = (
    <Link to={`/knowledge-base/${suggestion.article.id}`} className="text-indigo-700 hover:underline">
      {suggestion.article.title}
    </Link>
  );
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">“{suggestion.question}”</p>
        <p className="text-sm text-slate-600">
          {suggestion.source === "rated" ? (
            <>Rated helpful in a live chat, where the assistant answered with {article}</>
          ) : (
            <>
              Answered with {article} in a {suggestion.source === "chat" ? "live chat" : "ticket"}
            </>
          )}
        </p>
        {suggestion.article.questions >= KB_QUESTIONS_MAX && (
          <p className="text-sm text-amber-700">
            This article has {KB_QUESTIONS_MAX} example questions, the most it can have.
          </p>
        )}
      </div>
      {canEdit && (
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" size="sm" onClick={() => act("accept")} pending={pending === "accept"}>
            Add to article
          </Button>
          <Button variant="ghost" size="sm" onClick={() => act("dismiss")} pending={pending === "dismiss"}>
            Dismiss
          </Button>
        </div>
      )}
    </div>
  );
}
