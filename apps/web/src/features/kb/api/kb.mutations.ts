import {
  type Article,
  type CreateArticleBody,
  type CreateCategoryBody,
  helpCenterApi,
  kbApi,
} from "@cove/contract/kb.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { kbKeys } from "./kb.queries.ts";

/** Saving writes a new article or changes an existing one; either way lists and category counts change. */
export function useSaveArticle(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The editor sends every field either way: a whole article is a valid change too.
    mutationFn: async (body: CreateArticleBody): Promise<Article> => {
      const answer = id
        ? await callRoute(kbApi.updateArticle, { params: { id }, body })
        : await callRoute(kbApi.createArticle, { body });
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
    mutationFn: () => callRoute(kbApi.deleteArticle, { params: { id } }),
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
    mutationFn: async (body: CreateCategoryBody) => (await callRoute(kbApi.createCategory, { body })).category,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: kbKeys.categories() }),
  });
}

export function useHelpFeedback(orgSlug: string, articleSlug: string) {
  return useMutation({
    mutationFn: (helpful: boolean) =>
      callRoute(helpCenterApi.feedback, { params: { orgSlug, articleSlug }, body: { helpful } }),
  });
}
