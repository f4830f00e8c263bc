import type { QuestionSuggestion } from "@cove/contract/ai.ts";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { client, type registerOrg } from "../helpers.ts";

type Org = Awaited<ReturnType<typeof registerOrg>>;

/** A link to one of the organization's help-center articles, as an agent pastes it into a reply. */
export const articleLink = (org: Org, slug: string) =>
  `http://cove.test/help/${org.user.organizationSlug}/articles/${slug}`;

/** The pending suggested example questions, and an article's example questions, read through the API. */
export function suggestionReads(app: () => FastifyInstance) {
  const call = client(app);
  return {
    async suggestions(org: Org): Promise<QuestionSuggestion[]> {
      const res = await call(org, "GET", "/api/ai/suggestions");
      expect(res.statusCode, res.body).toBe(200);
      return res.json().suggestions;
    },
    async questionsOf(org: Org, articleId: string): Promise<string[]> {
      const res = await call(org, "GET", `/api/kb/articles/${articleId}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().article.questions;
    },
  };
}
