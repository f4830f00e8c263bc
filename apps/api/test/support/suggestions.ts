import type { QuestionSuggestion } from "@cove/contract/ai.ts";
import type { ChatMessage, StartChatAnswer } from "@cove/contract/chat.ts";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { client, newAddress, type registerOrg } from "../helpers.ts";

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

/**
 * A visitor starts a live chat on the organization's widget and asks: the chat (its token and session), its public
 * base path, and the message after the visitor's (the assistant's answer, or undefined when nothing followed).
 */
export async function visitorAsks(app: FastifyInstance, org: Org, question: string, _name = "Lee") {
  const base = `/api/public/${org.user.organizationSlug}/chat/sessions`;
  const started = await app.inject({
    method: "POST",
    url: base,
    payload: { name: "Lee" },
    remoteAddress: newAddress(),
  });
  expect(started.statusCode, started.body).toBe(201);
  const chat = started.json() as StartChatAnswer;
  const said = await client(() => app)(chat.token, "POST", `${base}/${chat.session.id}/messages`, {
    message: question,
  });
  expect(said.statusCode, said.body).toBe(201);
  const [, answer] = said.json().messages as ChatMessage[];
  return { chat, base, answer };
}
