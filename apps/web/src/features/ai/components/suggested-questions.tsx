import type { QuestionSuggestion } from "@cove/contract/ai.ts";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useReviewSuggestion, useSuggestions } from "../api/ai.api.ts";

export const REVIEW_FAILED = "The suggestion could not be saved";

/**
 * "Suggested by your team": questions customers asked that an agent answered with a link to a help-center article.
 * Accepting one makes it an example question of that article, so the assistant answers it next time on its own.
 * Shown only when there is something to review.
 */
export function SuggestedQuestions({ canEdit }: { canEdit: boolean }) {
  const list = useSuggestions();
  if (!list.data || list.data.suggestions.length === 0) return null;
  return (
    <section aria-labelledby="suggested-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="suggested-title" className="text-base font-semibold text-slate-900">
        Suggested by your team
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Your agents answered these questions with a link to an article.
        {canEdit
          ? " Accept one and the assistant will answer that question with the article next time."
          : " An administrator can add them to the articles."}
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
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">“{suggestion.question}”</p>
        <p className="text-sm text-slate-600">
          Answered with{" "}
          <Link to={`/knowledge-base/${suggestion.article.id}`} className="text-indigo-700 hover:underline">
            {suggestion.article.title}
          </Link>{" "}
          in a {suggestion.source === "chat" ? "live chat" : "ticket"}
        </p>
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
