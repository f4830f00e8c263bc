import { messageAnswer } from "@cove/contract/auth.ts";
import {
  type Article,
  articleAnswer,
  type CreateArticleBody,
  type CreateCategoryBody,
  categoryAnswer,
  helpFeedbackAnswer,
  type UpdateArticleBody,
} from "@cove/contract/kb.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { helpBase, kbKeys } from "./kb.queries.ts";

/** Saving writes a new article or changes an existing one; either way lists and category counts change. */
export function useSaveArticle(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateArticleBody | UpdateArticleBody): Promise<Article> => {
      const answer = id
        ? await apiRequest(`/kb/articles/${encodeURIComponent(id)}`, { method: "PUT", body, schema: articleAnswer })
        : await apiRequest("/kb/articles", { method: "POST", body, schema: articleAnswer });
      return answer.article;
    },
    onSuccess: (article) => {
      queryClient.setQueryData(kbKeys.article(article.id), article);
      void queryClient.invalidateQueries({ queryKey: kbKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: kbKeys.categories() });
    },
  });
}

export function useDeleteArticle(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(`/kb/articles/${encodeURIComponent(id)}`, { method: "DELETE", schema: messageAnswer }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: kbKeys.article(id) });
      void queryClient.invalidateQueries({ queryKey: kbKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: kbKeys.categories() });
    },
  });
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateCategoryBody) =>
      (await apiRequest("/kb/categories", { method: "POST", body, schema: categoryAnswer })).category,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: kbKeys.categories() }),
  });
}

export function useHelpFeedback(orgSlug: string, articleSlug: string) {
  return useMutation({
    mutationFn: (helpful: boolean) =>
      apiRequest(`${helpBase(orgSlug)}/articles/${encodeURIComponent(articleSlug)}/feedback`, {
        method: "POST",
        body: { helpful },
        schema: helpFeedbackAnswer,
      }),
  });
}
