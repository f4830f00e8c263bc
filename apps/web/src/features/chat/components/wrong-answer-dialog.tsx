import { Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useArticleList } from "../../kb/index.ts";
import { useMarkWrongAnswer } from "../api/chat.mutations.ts";

export const WRONG_ANSWER_FAILED = "The answer could not be marked wrong";
/** How many of the organization's published articles the picker shows for what was typed. */
const SHOWN = 20;
const SEARCH_PAUSE_MS = 250;

/** What was typed, once typing pauses. */
function usePaused(text: string): string {
  const [paused, setPaused] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(text), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return paused;
}

/**
 * "Wrong answer": the agent picks the published article that answers the customer's question (searchable), or says
 * no article covers it. The question becomes a suggested example question of the picked article (added at once when
 * the organization accepts them automatically); either way the assistant's threshold learns from the mark.
 */
export function WrongAnswerDialog({
  sessionId,
  messageId,
  open,
  onOpenChange,
  onMarked,
}: {
  sessionId: string;
  messageId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onMarked: () => void;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const [articleId, setArticleId] = useState<string | null>(null);
  const query = usePaused(search.trim());
  const articles = useArticleList({ page: 1, limit: SHOWN, status: "published", ...(query ? { search: query } : {}) });
  const mark = useMarkWrongAnswer(sessionId, messageId);
  const list = articles.data?.articles ?? [];

  const send = (body: { article_id: string } | { not_covered: true }) =>
    mark.mutate(body, {
      onSuccess: (done) => {
        toast.success(done.message);
        onMarked();
        onOpenChange(false);
      },
      onError: (error) => toastError(error, WRONG_ANSWER_FAILED),
    });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={mark.isPending}
      title="Wrong answer"
      description="Pick the article that answers the customer's question: the question is suggested as one of its example questions, so the assistant answers it from there next time. If no article covers it, say so."
      width="max-w-lg"
      layout="column"
    >
      <label htmlFor={`${id}-search`} className="mt-4 block text-sm font-medium text-slate-800">
        Search your published articles
      </label>
      <div className="relative mt-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          maxLength={200}
          onChange={(e) => setSearch(e.target.value)}
          className={`${inputClasses} pl-9`}
        />
      </div>
      <fieldset className="mt-3 min-h-24 flex-1 overflow-y-auto rounded-md border border-slate-200">
        <legend className="sr-only">The article that answers it</legend>
        {articles.isPending && (
          <div className="p-3 text-indigo-600">
            <Spinner label="Loading the articles" />
          </div>
        )}
        {articles.error && (
          <p className="p-3 text-sm text-red-700">The articles could not be loaded: {articles.error.message}</p>
        )}
        {articles.data && list.length === 0 && (
          <p className="p-3 text-sm text-slate-600">
            {query ? `No published article matches "${query}".` : "There is no published article yet."}
          </p>
        )}
        <ul className="divide-y divide-slate-100">
          {list.map((a) => (
            <li key={a.id}>
              <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm text-slate-800 hover:bg-slate-50">
                <input
                  type="radio"
                  name={`${id}-article`}
                  value={a.id}
                  checked={articleId === a.id}
                  onChange={() => setArticleId(a.id)}
                  className="size-4 accent-indigo-600"
                />
                <span className="min-w-0 break-words">{a.title}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button variant="secondary" disabled={mark.isPending} onClick={() => send({ not_covered: true })}>
          Not covered by any article
        </Button>
        <FormActions
          type="button"
          onCancel="close"
          cancelVariant="ghost"
          disabled={articleId === null}
          pending={mark.isPending}
          onClick={() => articleId && send({ article_id: articleId })}
        >
          Use this article
        </FormActions>
      </div>
    </FormDialog>
  );
}
