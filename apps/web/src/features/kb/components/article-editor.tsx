import type { Article, KbArticleStatus } from "@cove/contract/kb.ts";
import { Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Controller, useFieldArray } from "react-hook-form";
import { useBlocker, useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastErrorWithReason } from "../../../lib/toast-error.ts";
import { useDeleteArticle, useSaveArticle } from "../api/kb.mutations.ts";
import { useCategories } from "../api/kb.queries.ts";
import { ArticleStatusBadge } from "./article-status-badge.tsx";
import { BodyField } from "./body-field.tsx";
import { CategoryField } from "./category-field.tsx";
import { editorDefaults, editorSchema, toArticleBody } from "./editor-values.ts";
import { PhrasingsField } from "./phrasings-field.tsx";

export const EMPTY_BODY = "Write the article before publishing it.";

const SOMETHING_WRONG = "Something went wrong.";
const SAVED: Record<string, string> = {
  "new:draft": "Draft saved",
  "new:published": "Article published",
  "draft:draft": "Draft saved",
  "draft:published": "Article published",
  "published:published": "Article saved",
  "published:draft": "Article unpublished",
};

/** Writes a new article (no `article`) or edits one; saving opens the article as readers see it. */
export function ArticleEditor({ article }: { article?: Article }) {
  const navigate = useNavigate();
  const categories = useCategories();
  const save = useSaveArticle(article?.id);
  const remove = useDeleteArticle(article?.id ?? "");
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Set once the work is saved or deleted, so leaving the page afterwards asks nothing.
  const done = useRef(false);

  const {
    register,
    field,
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useContractForm(editorSchema, editorDefaults(article));
  const phrasings = useFieldArray({ control, name: "questions" });

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && !done.current && currentLocation.pathname !== nextLocation.pathname,
  );

  const submit = (status: KbArticleStatus) =>
    handleSubmit(async (values) => {
      if (status === "published" && values.body.trim() === "") {
        setError("body", { type: "required", message: EMPTY_BODY }, { shouldFocus: true });
        return;
      }
      try {
        const saved = await save.mutateAsync(toArticleBody(values, status));
        toast.success(SAVED[`${article?.status ?? "new"}:${status}`] ?? "Article saved");
        done.current = true;
        navigate(`/knowledge-base/${saved.id}`);
      } catch (error) {
        applyFieldErrors(error, setError, ["title", "body", "category_id"]);
        toastErrorWithReason(error, (reason) => `Failed to save article: ${reason}`, SOMETHING_WRONG);
      }
    });

  async function deleteArticle() {
    try {
      await remove.mutateAsync();
      toast.success("Article deleted");
      done.current = true;
      navigate("/knowledge-base");
    } catch (error) {
      setConfirmDelete(false);
      toastErrorWithReason(error, (reason) => `Failed to delete article: ${reason}`, SOMETHING_WRONG);
    }
  }

  const published = article?.status === "published";
  const busy = isSubmitting || remove.isPending;
  return (
    <form
      noValidate
      aria-label={article ? "Edit article" : "New article"}
      onSubmit={submit(published ? "published" : "draft")}
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      {article && (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          Status: <ArticleStatusBadge status={article.status} />
        </p>
      )}
      <TextField label="Title" maxLength={200} {...field("title")} />
      <div className="sm:max-w-lg">
        <Controller
          control={control}
          name="category_id"
          render={({ field }) => (
            <CategoryField categories={categories.data ?? []} value={field.value} onChange={field.onChange} />
          )}
        />
      </div>
      <BodyField text={watch("body")} {...field("body")} />
      <PhrasingsField
        ids={phrasings.fields.map((f) => f.id)}
        register={register}
        errors={phrasings.fields.map((_, i) => errors.questions?.[i]?.text?.message)}
        onAdd={() => phrasings.append({ text: "" }, { shouldFocus: true })}
        onRemove={(i) => phrasings.remove(i)}
      />

      <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center">
        {article && (
          <Button variant="ghost" className="text-red-700 hover:text-red-800" onClick={() => setConfirmDelete(true)}>
            <Trash2 className="size-4" aria-hidden="true" />
            Delete
          </Button>
        )}
        <div className="flex flex-col-reverse gap-3 sm:ml-auto sm:flex-row">
          <Button
            variant="ghost"
            disabled={busy}
            onClick={() => navigate(article ? `/knowledge-base/${article.id}` : "/knowledge-base")}
          >
            Cancel
          </Button>
          {published ? (
            <>
              <Button variant="secondary" disabled={busy} onClick={submit("draft")}>
                Unpublish
              </Button>
              <Button type="submit" pending={isSubmitting}>
                Save
              </Button>
            </>
          ) : (
            <>
              <Button variant="secondary" type="submit" disabled={busy}>
                Save draft
              </Button>
              <Button pending={isSubmitting} onClick={submit("published")}>
                Publish
              </Button>
            </>
          )}
        </div>
      </div>

      {article && (
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete article"
          description={`Are you sure you want to delete the article "${article.title}"?`}
          confirmLabel="Delete"
          tone="danger"
          pending={remove.isPending}
          onConfirm={() => void deleteArticle()}
        />
      )}
      <ConfirmDialog
        open={blocker.state === "blocked"}
        onOpenChange={(open) => {
          if (!open && blocker.state === "blocked") blocker.reset();
        }}
        title="Leave without saving?"
        description="Your changes to this article have not been saved and will be lost."
        confirmLabel="Leave"
        cancelLabel="Keep editing"
        tone="danger"
        onConfirm={() => blocker.proceed?.()}
      />
    </form>
  );
}
