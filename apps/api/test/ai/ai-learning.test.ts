import type { AiUnansweredAnswer, UnansweredReviewedAnswer } from "@cove/contract/ai.ts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiAnswers } from "../../src/db/schema/ai.ts";
import { kbArticles } from "../../src/db/schema/kb.ts";
import { groupQuestions } from "../../src/modules/ai/unanswered.ts";
import { bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { addArticle, agentSession, askAssistant, SHOP_ARTICLES } from "../support/kb-fixtures.ts";

let t: TestApp;
type Session = Awaited<ReturnType<typeof registerOrg>>;
let shop: Session;
let other: Session;
let billing: Awaited<ReturnType<typeof addArticle>>;
const shopIds: string[] = [];
let otherArticle: Awaited<ReturnType<typeof addArticle>>;

beforeAll(async () => {
  t = await createTestApp();
  shop = await registerOrg(t.app);
  other = await registerOrg(t.app);
  for (const a of SHOP_ARTICLES) {
    const added = await addArticle(t, shop.user.organizationId, a);
    shopIds.push(added.id);
    if (a.title === "Updating your billing details") billing = added;
  }
  otherArticle = await addArticle(t, other.user.organizationId, SHOP_ARTICLES[0]);
});
afterAll(() => t.close());

const ask = (token: string, message: string) => askAssistant(t, token, message);

async function unanswered(token: string): Promise<AiUnansweredAnswer> {
  const res = await t.app.inject({ method: "GET", url: "/api/ai/unanswered", headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiUnansweredAnswer;
}

const BITCOIN = "Can I pay with bitcoin?";
const BITCOIN_AGAIN = "can i pay with bitcoins";
const WRAPPING = "Do you offer gift wrapping?";

describe("grouping unanswered questions", () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));

  it("groups questions with the same words in any form or order, counts them and shows the most asked wording", () => {
    const groups = groupQuestions([
      { question: "Parcel to Canada?", handoff: true, createdAt: at(1) },
      { question: "parcels to canada", handoff: false, createdAt: at(2) },
      { question: "Parcel to Canada", handoff: true, createdAt: at(3) },
      { question: "Do you offer gift wrapping?", handoff: true, createdAt: at(4) },
      { question: "Can I pay with bitcoin?", handoff: true, createdAt: at(5) },
      { question: "Can I pay with bitcoin?", handoff: true, createdAt: at(6) },
    ]);
    expect(groups.map((g) => [g.question, g.count, g.handedOff])).toEqual([
      ["Parcel to Canada", 3, 2],
      ["Can I pay with bitcoin?", 2, 2],
      ["Do you offer gift wrapping?", 1, 1],
    ]);
    expect(groups[0]?.questions).toEqual(["Parcel to Canada", "parcels to canada"]);
    expect(groups[0]?.lastAskedAt).toEqual(at(3));
  });

  it("keeps questions apart that share only a word", () => {
    const groups = groupQuestions([
      { question: "How do I return a gift?", handoff: true, createdAt: at(1) },
      { question: "Do you offer gift wrapping?", handoff: true, createdAt: at(2) },
    ]);
    expect(groups).toHaveLength(2);
  });
});

describe("questions the assistant could not answer", () => {
  it("lists handed-off questions of the organization, grouped, with counts and the closest article", async () => {
    for (const q of [BITCOIN, BITCOIN_AGAIN, WRAPPING]) expect((await ask(shop.token, q)).handoff).toBe(true);
    // Asking for a person is not a question the articles failed to answer.
    await ask(shop.token, "Can I talk to a person?");
    const list = await unanswered(shop.token);
    expect(list.days).toBe(30);
    const bitcoin = list.groups.find((g) => g.questions.includes(BITCOIN));
    expect(bitcoin).toMatchObject({ count: 2, handed_off: 2, questions: [BITCOIN_AGAIN, BITCOIN] });
    // The closest article is offered to attach to; it is one of this organization's.
    expect(shopIds).toContain(bitcoin?.suggested_article?.id);
    expect(list.groups.find((g) => g.question === WRAPPING)?.count).toBe(1);
    expect(list.groups.some((g) => /person/.test(g.question))).toBe(false);
  });

  it("never shows one organization's questions to another", async () => {
    const list = await unanswered(other.token);
    expect(list.groups.flatMap((g) => g.questions)).not.toEqual(expect.arrayContaining([BITCOIN]));
    expect(list.groups).toEqual([]);
  });

  it("lets only an administrator of the article's organization attach questions to it", async () => {
    const body = { article_id: billing.id, questions: [BITCOIN, BITCOIN_AGAIN] };
    const foreign = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/attach",
      headers: bearer(other.token),
      payload: body,
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    const agent = await agentSession(t, shop.user.organizationId);
    const byAgent = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/attach",
      headers: bearer(agent.token),
      payload: body,
    });
    expect(byAgent.statusCode).toBe(403);
    // An agent may read the list.
    expect((await unanswered(agent.token)).groups.length).toBeGreaterThan(0);
    const [untouched] = await t.database.db
      .select({ questions: kbArticles.questions })
      .from(kbArticles)
      .where(eq(kbArticles.id, billing.id));
    expect(untouched?.questions).not.toContain(BITCOIN);
  });

  it("attaches a group to an article: its questions become example questions, leave the list, and are answered", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/attach",
      headers: bearer(shop.token),
      payload: { article_id: billing.id, questions: [BITCOIN, BITCOIN_AGAIN] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UnansweredReviewedAnswer>()).toEqual({
      article: { id: billing.id, title: "Updating your billing details" },
      reviewed: 2,
    });
    const [article] = await t.database.db
      .select({ questions: kbArticles.questions })
      .from(kbArticles)
      .where(eq(kbArticles.id, billing.id));
    expect(article?.questions).toEqual([
      "How do I change my credit card?",
      "Update payment method",
      "My card was declined",
      BITCOIN,
      BITCOIN_AGAIN,
    ]);
    const list = await unanswered(shop.token);
    expect(list.groups.some((g) => g.questions.includes(BITCOIN))).toBe(false);

    const again = await ask(shop.token, BITCOIN);
    expect(again.handoff).toBe(false);
    expect(again.sources[0]?.id).toBe(billing.id);
  });

  it("another organization's article is not found, and its own articles are untouched", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/attach",
      headers: bearer(shop.token),
      payload: { article_id: otherArticle.id, questions: [WRAPPING] },
    });
    expect(res.statusCode).toBe(404);
    const [article] = await t.database.db
      .select({ questions: kbArticles.questions })
      .from(kbArticles)
      .where(eq(kbArticles.id, otherArticle.id));
    expect(article?.questions).not.toContain(WRAPPING);
  });

  it("starts a draft article from a group, which then leaves the list", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/new-article",
      headers: bearer(shop.token),
      payload: { title: "Gift wrapping", questions: [WRAPPING] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<UnansweredReviewedAnswer>();
    expect(created.reviewed).toBe(1);
    const [draft] = await t.database.db.select().from(kbArticles).where(eq(kbArticles.id, created.article.id));
    expect(draft).toMatchObject({
      organizationId: shop.user.organizationId,
      title: "Gift wrapping",
      status: "draft",
      questions: [WRAPPING],
    });
    expect((await unanswered(shop.token)).groups.some((g) => g.question === WRAPPING)).toBe(false);
  });

  it("refuses an empty or malformed request with the reason", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ai/unanswered/attach",
      headers: bearer(shop.token),
      payload: { article_id: billing.id, questions: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain("Choose at least one question");
  });
});

describe("thumbs up and down", () => {
  it("records whether an answer helped; a thumbs down puts the question on the list", async () => {
    const reply = await ask(shop.token, "How do I return an item?");
    expect(reply.handoff).toBe(false);
    expect(reply.answerId).toBeDefined();
    const down = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-feedback",
      headers: bearer(shop.token),
      payload: { answerId: reply.answerId, helpful: false },
    });
    expect(down.statusCode, down.body).toBe(200);
    const [row] = await t.database.db
      .select({ feedback: aiAnswers.feedback })
      .from(aiAnswers)
      .where(eq(aiAnswers.id, reply.answerId ?? ""));
    expect(row?.feedback).toBe("down");
    // A member's rating in the test console is not a customer's: the resolution card counts customers' only.
    const stats = await t.app.inject({ method: "GET", url: "/api/ai/stats", headers: bearer(shop.token) });
    expect(stats.json()).toMatchObject({ rated_helpful: 0, rated_unhelpful: 0 });
    await t.database.db.insert(aiAnswers).values({
      organizationId: shop.user.organizationId,
      channel: "chat",
      question: "Where is my order?",
      confidence: 0.9,
      handoff: false,
      provider: "embedded",
      latencyMs: 5,
      feedback: "up",
    });
    const after = await t.app.inject({ method: "GET", url: "/api/ai/stats", headers: bearer(shop.token) });
    expect(after.json()).toMatchObject({ rated_helpful: 1, rated_unhelpful: 0 });
    expect((await unanswered(shop.token)).groups.some((g) => g.question === "How do I return an item?")).toBe(true);
  });

  it("does not let another organization rate an answer", async () => {
    const reply = await ask(shop.token, "I forgot my password");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-feedback",
      headers: bearer(other.token),
      payload: { answerId: reply.answerId, helpful: false },
    });
    expect(res.statusCode).toBe(404);
    const [row] = await t.database.db
      .select({ feedback: aiAnswers.feedback })
      .from(aiAnswers)
      .where(eq(aiAnswers.id, reply.answerId ?? ""));
    expect(row?.feedback).toBeNull();
  });
});
