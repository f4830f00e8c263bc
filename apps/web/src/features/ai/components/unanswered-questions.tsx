import type { UnansweredGroup } from "@cove/contract/ai.ts";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { CARD, TitledSection } from "../../../components/ui/titled-section.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useArticleList } from "../../kb/index.ts";
import { useMarkNotCovered, useReviewUnanswered, useUnanswered } from "../api/ai.api.ts";

export const ATTACH_FAILED = "The questions could not be attached";
export const NOT_COVERED_FAILED = "The questions could not be marked as not covered";
export const NEW_ARTICLE_FAILED = "The article could not be started";

const times = (n: number) => (n === 1 ? "once" : `${n.toLocaleString("en-US")} times`);

/**
 * "Questions the assistant could not answer": the last 30 days' handed-off, low-confidence and thumbs-down
 * questions, grouped when they ask the same thing. An administrator attaches a group to an article (its questions
 * become the article's example questions, so the assistant answers them next time) or starts a new article from it.
 */
export function UnansweredQuestions({ canEdit }: { canEdit: boolean }) {
  const list = useUnanswered();
  const articles = useArticleList({ page: 1, limit: 100, status: "published" });
  const options = (articles.data?.articles ?? []).map((a) => ({ value: a.id, label: a.title }));
  return (
    <TitledSection
      titleId="unanswered-title"
      title="Questions the assistant could not answer"
      className={CARD}
      titleClassName="text-base font-semibold text-slate-900"
    >
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Last {list.data?.days ?? 30} days: handed off to your team, answered with low confidence, or rated unhelpful.
        {canEdit
          ? " Attach a group to the article that answers it and the assistant will answer it next time, start a new article, or say no article covers it (the assistant's threshold learns to hand such questions off)."
          : " An administrator can attach them to an article."}
      </p>
      {list.error && (
        <p className="mt-3 text-sm text-red-700">The questions could not be loaded: {list.error.message}</p>
      )}
      {!list.data && !list.error && (
        <div className="mt-4 text-indigo-600">
          <Spinner label="Loading the questions" />
        </div>
      )}
      {list.data && list.data.groups.length === 0 && (
        <p className="mt-3 text-sm text-slate-600">
          Nothing to review: every recent question was answered confidently.
        </p>
      )}
      {list.data && list.data.groups.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100">
          {list.data.groups.map((group) => (
            <li key={`${group.question}-${group.last_asked_at}`} className="py-3">
              <QuestionGroupRow group={group} canEdit={canEdit} options={options} />
            </li>
          ))}
        </ul>
      )}
    </TitledSection>
  );
}

function QuestionGroupRow({
  group,
  canEdit,
  options,
}: {
  group: UnansweredGroup;
  canEdit: boolean;
  options: { value: string; label: string }[];
}) {
  const navigate = useNavigate();
  const review = useReviewUnanswered();
  const notCovered = useMarkNotCovered();
  const [articleId, setArticleId] = useState(group.suggested_article?.id ?? "");
  const chosen = articleId || options[0]?.value || "";
  const others = group.questions.filter((q) => q !== group.question);

  const attach = () =>
    review.attach.mutate(
      { article_id: chosen, questions: group.questions },
      {
        onSuccess: (done) => toast.success(`Added to "${done.article.title}" as example questions`),
        onError: (error) => toastError(error, ATTACH_FAILED),
      },
    );
  const startArticle = () =>
    review.newArticle.mutate(
      { title: group.question.slice(0, 200), questions: group.questions },
      {
        onSuccess: (done) => void navigate(`/knowledge-base/${done.article.id}/edit`),
        onError: (error) => toastError(error, NEW_ARTICLE_FAILED),
      },
    );

  const markNotCovered = () =>
    notCovered.mutate(
      { questions: group.questions },
      {
        onSuccess: () =>
          toast.success(
            `“${group.question}” is marked as not covered by any article: the assistant should hand it off`,
          ),
        onError: (error) => toastError(error, NOT_COVERED_FAILED),
      },
    );

  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{group.question}</p>
        <p className="text-xs text-slate-500">
          Asked {times(group.count)}
          {group.handed_off > 0 && ` · ${group.handed_off.toLocaleString("en-US")} handed off`} · last{" "}
          {new Date(group.last_asked_at).toLocaleDateString("en-US", { month: "short", day: "numeric" })}
        </p>
        {others.length > 0 && (
          <p className="mt-1 text-sm break-words text-slate-600">
            Also asked as: {others.map((q) => `“${q}”`).join(", ")}
          </p>
        )}
      </div>
      {canEdit && (
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            label="Article"
            value={chosen}
            onChange={(e) => setArticleId(e.target.value)}
            options={options}
            disabled={options.length === 0}
            className="w-64"
          />
          <Button variant="secondary" size="md" onClick={attach} disabled={!chosen} pending={review.attach.isPending}>
            Attach to article
          </Button>
          <Button variant="ghost" size="md" onClick={startArticle} pending={review.newArticle.isPending}>
            Start a new article
          </Button>
          <Button variant="ghost" size="md" onClick={markNotCovered} pending={notCovered.isPending}>
            Not covered
          </Button>
        </div>
      )}
    </div>
  );
}
