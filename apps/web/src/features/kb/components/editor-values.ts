import {
  type Article,
  type CreateArticleBody,
  createArticleBody,
  KB_BODY_MAX,
  KB_QUESTION_MAX,
  type KbArticleStatus,
} from "@cove/contract/kb.ts";
import { z } from "zod";

/** The editor's fields; the category is "" for none and phrasings are objects (react-hook-form's field arrays). */
export const editorSchema = z.object({
  title: createArticleBody.shape.title,
  body: z.string().max(KB_BODY_MAX, `Body must be at most ${KB_BODY_MAX.toLocaleString("en-US")} characters`),
  category_id: z.string(),
  questions: z.array(
    z.object({
      text: z
        .string()
        .trim()
        .max(KB_QUESTION_MAX, `An alternative phrasing must be at most ${KB_QUESTION_MAX} characters`),
    }),
  ),
});
export type EditorValues = z.input<typeof editorSchema>;

export function editorDefaults(article?: Article): EditorValues {
  return {
    title: article?.title ?? "",
    body: article?.body ?? "",
    category_id: article?.category_id ?? "",
    questions: (article?.questions ?? []).map((text) => ({ text })),
  };
}

/** What the API is sent when the editor saves with the given status. */
export function toArticleBody(values: z.output<typeof editorSchema>, status: KbArticleStatus): CreateArticleBody {
  return {
    title: values.title,
    body: values.body,
    category_id: values.category_id === "" ? null : values.category_id,
    questions: values.questions.map((q) => q.text).filter((q) => q !== ""),
    status,
  };
}
