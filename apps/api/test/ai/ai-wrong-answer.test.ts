import type { ThresholdProposal } from "@cove/contract/ai.ts";
import type { ChatMessage } from "@cove/contract/chat.ts";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aiAnswers, aiQuestionSuggestions } from "../../src/db/schema/ai.ts";
import { chatMessages } from "../../src/db/schema/chat.ts";
import { addMember, client, createArticle, type Org, registerOrg, testAppForFile } from "../helpers.ts";
import { suggestionReads, visitorAsks } from "../support/suggestions.ts";

/*
 * "Wrong answer" on an assistant's answer in the agent's live-chat view (issue 35, items 1 and 2): the right article
 * gets the customer's question as a candidate example question, or the question is labelled not covered; either way
 * the answer is a label for the organization's hand-off threshold.
 */

const t = testAppForFile();
const call = client(() => t.app);
const { suggestions, questionsOf } = suggestionReads(() => t.app);

const SHIPPING = {
  title: "How long does shipping take?",
  body: "Orders ship in 2 days. International orders take 7 to 10 days.",
  status: "published",
};
const RETURNS = {
  title: "Sending something back",
  body: "Send the item back within 30 days in its box and we refund you within 5 days of receiving it.",
  status: "published",
};
const ASKED = "How long does shipping take for my return?";

interface Shop {
  org: Org;
  shipping: { id: string; slug: string };
  returns: { id: string; slug: string };
}

async function shop(): Promise<Shop> {
  const org = await registerOrg(t.app);
  const shipping = await createArticle(t.app, org, SHIPPING);
  const returns = await createArticle(t.app, org, RETURNS);
  return { org, shipping, returns };
}

/** A visitor asks in the chat widget; the assistant answers (not a hand-off). The session and that answer. */
async function answeredChat(org: Org, question = ASKED) {
  const { chat, base, answer } = await visitorAsks(t.app, org, question);
  expect(answer?.sender_type).toBe("ai");
  // An answer a visitor may rate: one the assistant gave and logged.
  expect(answer?.feedback).toBeNull();
  return {
    sessionId: chat.session.id,
    answerId: answer?.id ?? "",
    greetingId: chat.messages[0]?.id ?? "",
    visitorToken: chat.token,
    visitorBase: base,
  };
}

const markUrl = (sessionId: string, messageId: string) =>
  `/api/chat/sessions/${sessionId}/messages/${messageId}/wrong-answer`;

async function loggedOf(messageId: string) {
  const [row] = await t.database.db
    .select({
      markedWrong: aiAnswers.markedWrong,
      notCovered: aiAnswers.notCovered,
      reviewedArticleId: aiAnswers.reviewedArticleId,
      reviewedAt: aiAnswers.reviewedAt,
      confidence: aiAnswers.confidence,
    })
    .from(chatMessages)
    .innerJoin(aiAnswers, eq(aiAnswers.id, chatMessages.aiAnswerId))
    .where(eq(chatMessages.id, messageId));
  if (!row) throw new Error("no logged answer");
  return row;
}

async function labelled(org: Org) {
  const res = await call(org, "GET", "/api/ai/threshold");
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ThresholdProposal>();
}

describe("marking an assistant's answer wrong in the live chat", () => {
  it("picks the right article: the question becomes its candidate, and the answer a label to hand off", async () => {
    const { org, returns } = await shop();
    const chat = await answeredChat(org);
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    const res = await call(agent, "POST", markUrl(chat.sessionId, chat.answerId), { article_id: returns.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: `Marked wrong. "${ASKED}" is suggested as an example question of "${RETURNS.title}": an administrator adds it on the AI Assistant page.`,
    });
    // The same candidate path as a reply linking the article: pending, for an admin.
    const [candidate, ...rest] = await suggestions(org);
    expect(rest).toEqual([]);
    expect(candidate).toMatchObject({ question: ASKED, source: "chat", article: { id: returns.id } });
    expect(await questionsOf(org, returns.id)).toEqual([]);
    const logged = await loggedOf(chat.answerId);
    expect(logged).toMatchObject({ markedWrong: true, notCovered: false, reviewedArticleId: returns.id });
    expect(logged.reviewedAt).not.toBeNull();

    // For the threshold it is a question that should have been handed off at the confidence it was answered with.
    const proposal = await labelled(org);
    expect(proposal.labelled).toEqual({ answerable: 0, uncovered: 0, wrong: 1 });
    // It was answered (at or above the current threshold): none of the wrongly answered questions was handed off.
    expect(logged.confidence).toBeGreaterThanOrEqual(0.5);
    expect(proposal.at_current).toEqual({
      threshold: 0.5,
      answerable_handed_off: 0,
      uncovered_handed_off: null,
      wrong_handed_off: 0,
    });

    // Accepted, its wording is an example question of the article; the answer stays a wrong one, not an answerable one.
    const accepted = await call(org, "POST", `/api/ai/suggestions/${candidate?.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await questionsOf(org, returns.id)).toEqual([ASKED]);
    expect((await labelled(org)).labelled).toEqual({ answerable: 0, uncovered: 0, wrong: 1 });
  });

  it("adds the question to the article at once when the organization accepts automatically", async () => {
    const { org, returns } = await shop();
    expect((await call(org, "PUT", "/api/ai/settings", { learn_automatically: true })).statusCode).toBe(200);
    const chat = await answeredChat(org);
    const res = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), { article_id: returns.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Marked wrong. "${ASKED}" is now an example question of "${RETURNS.title}".`);
    expect(await questionsOf(org, returns.id)).toEqual([ASKED]);
    expect(await suggestions(org)).toEqual([]);
    expect((await labelled(org)).labelled).toEqual({ answerable: 0, uncovered: 0, wrong: 1 });
    // The next customer asking it is answered from the right article.
    const again = await call(org, "POST", "/api/chat/ai-response", { message: ASKED });
    expect(again.json().sources[0]?.id).toBe(returns.id);
  });

  it("says when the article already has a question like it, and marks the answer all the same", async () => {
    const { org, shipping } = await shop();
    const chat = await answeredChat(org);
    const res = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), { article_id: shipping.id });
    expect(res.statusCode, res.body).toBe(200);
    // "How long does shipping take for my return?" shares the title's content words.
    expect(res.json().message).toBe(
      `Marked wrong. "${SHIPPING.title}" already has, or was already suggested, a question like "${ASKED}".`,
    );
    expect(await suggestions(org)).toEqual([]);
    expect((await loggedOf(chat.answerId)).markedWrong).toBe(true);
  });

  it("'Not covered' labels the question as one no article covers", async () => {
    const { org } = await shop();
    const chat = await answeredChat(org);
    const res = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), { not_covered: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain("no article covers");
    expect(await loggedOf(chat.answerId)).toMatchObject({
      markedWrong: true,
      notCovered: true,
      reviewedArticleId: null,
    });
    expect((await labelled(org)).labelled).toEqual({ answerable: 0, uncovered: 1, wrong: 0 });
    expect(await suggestions(org)).toEqual([]);
  });

  it("the agent's view of the chat says the answer was marked, so it is not offered again; the visitor never sees it", async () => {
    const { org } = await shop();
    const chat = await answeredChat(org);
    const staffView = async () =>
      ((await call(org, "GET", `/api/chat/sessions/${chat.sessionId}/messages`)).json().messages as ChatMessage[]).find(
        (m) => m.id === chat.answerId,
      );
    expect(await staffView()).toMatchObject({ sender_type: "ai", marked_wrong: false });
    const res = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), { not_covered: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await staffView()).toMatchObject({ sender_type: "ai", marked_wrong: true });
    const visitor = await call(chat.visitorToken, "GET", `${chat.visitorBase}/${chat.sessionId}`);
    expect(visitor.statusCode, visitor.body).toBe(200);
    const seen = (visitor.json().messages as ChatMessage[]).find((m) => m.id === chat.answerId);
    expect(seen?.sender_type).toBe("ai");
    expect(seen).not.toHaveProperty("marked_wrong");
  });

  it("another organization's user gets 404 and changes nothing; so does another organization's article", async () => {
    const { org, returns } = await shop();
    const other = await shop();
    const chat = await answeredChat(org);
    for (const payload of [{ article_id: other.returns.id }, { article_id: returns.id }, { not_covered: true }]) {
      const res = await call(other.org, "POST", markUrl(chat.sessionId, chat.answerId), payload);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toBe("Answer not found");
    }
    const foreignArticle = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), {
      article_id: other.returns.id,
    });
    expect(foreignArticle.statusCode, foreignArticle.body).toBe(404);
    expect(foreignArticle.json().error).toBe("Article not found");
    expect(await loggedOf(chat.answerId)).toMatchObject({ markedWrong: false, notCovered: false, reviewedAt: null });
    const rows = await t.database.db
      .select({ id: aiQuestionSuggestions.id })
      .from(aiQuestionSuggestions)
      .where(eq(aiQuestionSuggestions.organizationId, org.user.organizationId));
    expect(rows).toEqual([]);
    expect((await labelled(org)).labelled).toEqual({ answerable: 0, uncovered: 0, wrong: 0 });
    expect((await labelled(other.org)).labelled).toEqual({ answerable: 0, uncovered: 0, wrong: 0 });
  });

  it("finds only the assistant's logged answers: a greeting, a draft article or a malformed id is not found", async () => {
    const { org } = await shop();
    const draft = await createArticle(t.app, org, { title: "Gift cards", body: "Soon.", status: "draft" });
    const chat = await answeredChat(org);
    const cases: [string, unknown, string][] = [
      [markUrl(chat.sessionId, chat.greetingId), { not_covered: true }, "Answer not found"],
      [markUrl(chat.sessionId, "not-an-id"), { not_covered: true }, "Answer not found"],
      [markUrl("not-an-id", chat.answerId), { not_covered: true }, "Answer not found"],
      [markUrl(chat.sessionId, chat.answerId), { article_id: draft.id }, "Article not found"],
    ];
    for (const [url, payload, error] of cases) {
      const res = await call(org, "POST", url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(404);
      expect(res.json().error).toBe(error);
    }
    expect((await call(null, "POST", markUrl(chat.sessionId, chat.answerId), { not_covered: true })).statusCode).toBe(
      401,
    );
  });

  it("refuses a request that names no article, both, or not an article, with the reason", async () => {
    const { org, returns } = await shop();
    const chat = await answeredChat(org);
    const oneOfTwo = "Choose the article that answers the question, or say that no article covers it (one of the two)";
    const cases: [unknown, string][] = [
      [{}, oneOfTwo],
      [{ article_id: returns.id, not_covered: true }, oneOfTwo],
      [{ article_id: "returns" }, "Choose one of your published articles"],
      [{ not_covered: false }, "not_covered must be true"],
    ];
    for (const [payload, reason] of cases) {
      const res = await call(org, "POST", markUrl(chat.sessionId, chat.answerId), payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toContain(reason);
    }
    expect((await loggedOf(chat.answerId)).markedWrong).toBe(false);
  });

  it("is in the OpenAPI document with its answers", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const op = doc.paths["/api/chat/sessions/{id}/messages/{messageId}/wrong-answer"]?.post;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "404"]));
  });
});
