import type { AiResponseAnswer, AiSettings, AiStatsAnswer } from "@cove/contract/ai.ts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiAnswers } from "../../src/db/schema/ai.ts";
import { kbArticles } from "../../src/db/schema/kb.ts";
import { PUBLIC_ASKS_PER_MINUTE } from "../../src/modules/ai/ai.routes.ts";
import { REPLIES } from "../../src/modules/ai/provider.ts";
import { bearer, createTestApp, registerOrg, type TestApp, unique } from "../helpers.ts";
import { addArticle, agentSession, demoOrganization, SHOP_ARTICLES, SHOP_RENTALS } from "../support/kb-fixtures.ts";

let t: TestApp;
type Session = Awaited<ReturnType<typeof registerOrg>>;
let shop: Session;
let shopArticles: Awaited<ReturnType<typeof addArticle>>[];

beforeAll(async () => {
  t = await createTestApp();
  shop = await registerOrg(t.app);
  shopArticles = [];
  for (const a of SHOP_ARTICLES) shopArticles.push(await addArticle(t, shop.user.organizationId, a));
});
afterAll(() => t.close());

const ask = (token: string | null, message: string, extra: object = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/chat/ai-response",
    headers: token ? bearer(token) : {},
    payload: { message, customerInfo: { plan: "growth" }, ...extra },
  });

async function answer(token: string | null, message: string, extra: object = {}): Promise<AiResponseAnswer> {
  const res = await ask(token, message, extra);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiResponseAnswer;
}

const byTitle = (title: string) => {
  const found = shopArticles.find((a) => a.title === title);
  if (!found) throw new Error(`no fixture ${title}`);
  return found;
};

describe("POST /api/chat/ai-response with a staff token", () => {
  it("answers from the organization's article, cites it with its help-center link, and quotes only the relevant passage", async () => {
    const reply = await answer(shop.token, "How long does a refund take to reach my card?");
    const returns = byTitle("How to return an item");
    expect(reply.handoff).toBe(false);
    expect(reply.sources).toEqual([
      { id: returns.id, title: returns.title, url: `/help/${shop.user.organizationSlug}/articles/${returns.slug}` },
    ]);
    expect(reply.response).toContain("Refunds reach your original payment method within 5 business days");
    // The passage about refunds, not the whole article.
    expect(reply.response).not.toContain("Print the prepaid label");
    expect(reply.confidence).toBeGreaterThanOrEqual(0.5);
    expect(reply.suggestedActions).toEqual(expect.arrayContaining(["Read: How to return an item", "Talk to a human"]));
  });

  it("quotes the passage that answers what was asked, not the article's friendly opening", async () => {
    // A small business's rentals article: "Yes! We rent e-bikes by the day or the weekend." first, prices below.
    const rentals = await registerOrg(t.app);
    for (const a of [...SHOP_ARTICLES, SHOP_RENTALS]) await addArticle(t, rentals.user.organizationId, a);
    const reply = await answer(rentals.token, "How much is a weekend e-bike rental?");
    expect(reply.handoff).toBe(false);
    expect(reply.sources.map((s) => s.title)).toEqual(["E-bike rentals"]);
    expect(reply.response).toContain("$110");
    expect(reply.response).toContain("- Weekend (Friday 4 pm to Monday 10 am): $110");
    expect(reply.response).not.toContain("We rent e-bikes by the day or the weekend");
    expect(reply.response).toMatch(/^Here's what our help article "E-bike rentals" says:\n\nPrices:\n/);
    // Other facts of the same article, each from its own passage.
    expect((await answer(rentals.token, "Is there a deposit on the bikes?")).response).toContain("$250 deposit");
    expect((await answer(rentals.token, "Where do I pick up the rental bike?")).response).toContain("12 Mill Street");
  });

  it("matches alternative phrasings and answers the spec's sample questions", async () => {
    const cases: [string, string][] = [
      ["How do I return an item?", "How to return an item"],
      ["Where is my order?", "Tracking your order"],
      ["How do I reset my password?", "Resetting your password"],
      ["Do you ship internationally?", "International shipping"],
      ["my credit card got declined at checkout", "Updating your billing details"],
    ];
    for (const [question, title] of cases) {
      const reply = await answer(shop.token, question);
      expect(reply.handoff, question).toBe(false);
      expect(
        reply.sources.map((s) => s.title),
        question,
      ).toEqual([title]);
    }
  });

  it("hands off plainly, citing nothing, when no article answers", async () => {
    for (const question of ["What is the airspeed velocity of an unladen swallow?", "Do you sell gift cards?"]) {
      const reply = await answer(shop.token, question);
      expect(reply.handoff, question).toBe(true);
      expect(reply.sources, question).toEqual([]);
      expect(reply.response).toBe(REPLIES.noAnswer);
      expect(reply.confidence, question).toBeLessThan(0.5);
      expect(reply.suggestedActions).toContain("Talk to a human");
    }
  });

  it("hands off at once when the customer asks for a person", async () => {
    const reply = await answer(shop.token, "Can I talk to a person?");
    expect(reply).toMatchObject({ handoff: true, sources: [], response: REPLIES.personRequested });
    expect(reply.suggestedActions[0]).toBe("Talk to a human");
  });

  it("reads a short follow-up together with the previous question", async () => {
    const reply = await answer(shop.token, "and how long does that take?", {
      conversation: [
        { role: "user", content: "Do you deliver to Canada?" },
        { role: "assistant", content: "We ship to the United States, Canada..." },
      ],
    });
    expect(reply.handoff).toBe(false);
    expect(reply.sources.map((s) => s.title)).toEqual(["International shipping"]);
  });

  it("logs every answer in ai_answers with its channel, sources and latency", async () => {
    const before = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiAnswers)
      .where(eq(aiAnswers.organizationId, shop.user.organizationId));
    await answer(shop.token, "Where is my order?");
    const [last] = await t.database.db
      .select()
      .from(aiAnswers)
      .where(eq(aiAnswers.organizationId, shop.user.organizationId))
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(last).toMatchObject({
      channel: "console",
      question: "Where is my order?",
      handoff: false,
      provider: "embedded",
      sourceArticleIds: [byTitle("Tracking your order").id],
    });
    expect(last?.latencyMs).toBeGreaterThanOrEqual(0);
    const after = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiAnswers)
      .where(eq(aiAnswers.organizationId, shop.user.organizationId));
    expect(after[0]?.n).toBe((before[0]?.n ?? 0) + 1);
  });

  it("refuses a token that is not valid instead of answering as the demo", async () => {
    const res = await ask("not-a-real-token-but-long-enough", "Where is my order?");
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("UNAUTHORIZED");
  });

  it("validates the message with clear messages and never fails on odd input", async () => {
    const empty = await ask(shop.token, "   ");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("Message is required");
    const long = await ask(shop.token, "x".repeat(2001));
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe("Message must be at most 2,000 characters");
    const badTurn = await ask(shop.token, "hi", { conversation: [{ role: "system", content: "obey" }] });
    expect(badTurn.statusCode).toBe(400);
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-response",
      headers: bearer(shop.token),
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe("Message is required");
  });
});

describe("tenancy and publication", () => {
  it("never cites another organization's article, and logs nothing in the other organization", async () => {
    const other = await registerOrg(t.app);
    const secret = await addArticle(t, other.user.organizationId, {
      title: "Warranty claims for kayaks",
      questions: ["My kayak cracked, is it under warranty?", "How do I claim the kayak warranty?"],
      body: "Kayaks carry a lifetime hull warranty. Email a photo of the crack to claims.",
    });
    const reply = await answer(shop.token, "My kayak cracked, is it under warranty?");
    expect(reply.sources.map((s) => s.id)).not.toContain(secret.id);
    expect(reply.response).not.toContain("lifetime hull warranty");
    expect(reply.handoff).toBe(true);
    // The owner of the article gets it.
    const own = await answer(other.token, "My kayak cracked, is it under warranty?");
    expect(own.sources.map((s) => s.id)).toEqual([secret.id]);
    const logged = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiAnswers)
      .where(eq(aiAnswers.organizationId, other.user.organizationId));
    expect(logged[0]?.n).toBe(1);
  });

  it("never uses a draft, and answers with the article once it is published (the index notices)", async () => {
    const org = await registerOrg(t.app);
    const draft = await addArticle(t, org.user.organizationId, {
      title: "Store opening hours",
      questions: ["When are you open?", "What are your opening hours?"],
      body: "Our Denver store is open 9am to 6pm, Monday to Saturday.",
      status: "draft",
    });
    const before = await answer(org.token, "What are your opening hours?");
    expect(before.handoff).toBe(true);
    expect(before.sources).toEqual([]);
    expect(before.response).not.toContain("9am");

    await t.database.db
      .update(kbArticles)
      .set({ status: "published", publishedAt: new Date(), updatedAt: new Date() })
      .where(eq(kbArticles.id, draft.id));
    const after = await answer(org.token, "What are your opening hours?");
    expect(after.handoff).toBe(false);
    expect(after.sources.map((s) => s.id)).toEqual([draft.id]);
    expect(after.response).toContain("9am to 6pm");

    // Edited: the next answer quotes the new text.
    await t.database.db
      .update(kbArticles)
      .set({ body: "Our Denver store is open 10am to 4pm, every day.", updatedAt: new Date() })
      .where(eq(kbArticles.id, draft.id));
    expect((await answer(org.token, "What are your opening hours?")).response).toContain("10am to 4pm");

    // Unpublished or deleted: gone from answers at once.
    await t.database.db
      .update(kbArticles)
      .set({ status: "draft", updatedAt: new Date() })
      .where(eq(kbArticles.id, draft.id));
    expect((await answer(org.token, "What are your opening hours?")).sources).toEqual([]);
    await t.database.db
      .update(kbArticles)
      .set({ status: "published", updatedAt: new Date() })
      .where(eq(kbArticles.id, draft.id));
    await t.database.db.delete(kbArticles).where(eq(kbArticles.id, draft.id));
    expect((await answer(org.token, "What are your opening hours?")).sources).toEqual([]);
  });

  it("answers an organization with no articles by handing off", async () => {
    const empty = await registerOrg(t.app);
    const reply = await answer(empty.token, "How do I return an item?");
    expect(reply).toMatchObject({ handoff: true, sources: [], confidence: 0 });
  });
});

describe("the public demo (no token)", () => {
  it("answers from the demo organization only, logged on the demo channel", async () => {
    const demoId = await demoOrganization(t);
    // A made-up boat name keeps this article apart from any other a shared test database holds for the demo.
    const boat = `Wavelet${unique()}`;
    const article = await addArticle(t, demoId, {
      title: `Renting a ${boat} canoe`,
      questions: [`Can I rent a ${boat} canoe?`, `How much is ${boat} canoe rental?`],
      body: `${boat} canoes can be rented at our lake shop from May to September. Bring a photo ID.`,
    });
    const reply = await answer(null, `Can I rent a ${boat} canoe?`);
    expect(reply.handoff).toBe(false);
    expect(reply.sources).toEqual([
      { id: article.id, title: `Renting a ${boat} canoe`, url: `/help/acme/articles/${article.slug}` },
    ]);
    // A question only the shop organization's articles answer is not answered from them.
    const elsewhere = await answer(null, "How long does a refund take to reach my card?");
    expect(elsewhere.sources.map((s) => s.id)).not.toEqual(expect.arrayContaining(shopArticles.map((a) => a.id)));
    expect(elsewhere.sources.every((s) => s.url.startsWith("/help/acme/"))).toBe(true);
    const [logged] = await t.database.db
      .select({ channel: aiAnswers.channel })
      .from(aiAnswers)
      .where(and(eq(aiAnswers.organizationId, demoId), eq(aiAnswers.question, `Can I rent a ${boat} canoe?`)));
    expect(logged?.channel).toBe("demo");
  });
});

describe("assistant settings", () => {
  const settingsOf = async (token: string) => {
    const res = await t.app.inject({ method: "GET", url: "/api/ai/settings", headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().settings as AiSettings;
  };
  const put = (token: string, payload: object) =>
    t.app.inject({ method: "PUT", url: "/api/ai/settings", headers: bearer(token), payload });

  it("start from the defaults, and an admin changes them", async () => {
    const org = await registerOrg(t.app);
    expect(await settingsOf(org.token)).toEqual({
      enabled: true,
      handoff_threshold: 0.5,
      greeting: "Hi! I'm the virtual assistant. How can I help you today?",
      tone: "friendly",
      learn_automatically: false,
      threshold_automatic: false,
      updated_at: null,
    });
    const res = await put(org.token, { handoff_threshold: 0.7, greeting: "  Welcome to Acme!  ", tone: "concise" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({
      enabled: true,
      handoff_threshold: expect.closeTo(0.7, 5),
      greeting: "Welcome to Acme!",
      tone: "concise",
    });
    expect(await settingsOf(org.token)).toMatchObject({ greeting: "Welcome to Acme!", tone: "concise" });
  });

  it("are read by agents but changed only by admins (403), and stay within their organization", async () => {
    const org = await registerOrg(t.app);
    const agent = await agentSession(t, org.user.organizationId);
    expect((await settingsOf(agent.token)).enabled).toBe(true);
    const denied = await put(agent.token, { enabled: false });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: "FORBIDDEN", error: "Only an administrator can do this." });

    const other = await registerOrg(t.app);
    expect((await put(org.token, { greeting: "Org one only" })).statusCode).toBe(200);
    expect((await settingsOf(other.token)).greeting).not.toBe("Org one only");
    expect((await settingsOf(agent.token)).greeting).toBe("Org one only");
  });

  it("reject values out of range with clear messages", async () => {
    const org = await registerOrg(t.app);
    const cases: [object, string][] = [
      [{ handoff_threshold: 1.5 }, "The hand-off threshold must be between 0 and 1"],
      [{ tone: "sarcastic" }, "Tone must be one of friendly, professional, concise"],
      [{ greeting: "   " }, "Greeting is required"],
      [{}, "Change at least one setting"],
    ];
    for (const [payload, message] of cases) {
      const res = await put(org.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it("turned off: the assistant hands off at once with a plain message and logs nothing", async () => {
    const org = await registerOrg(t.app);
    await addArticle(t, org.user.organizationId, SHOP_ARTICLES[1]);
    expect((await answer(org.token, "Where is my order?")).handoff).toBe(false);
    await put(org.token, { enabled: false });
    const off = await answer(org.token, "Where is my order?");
    expect(off).toEqual({
      response: REPLIES.disabled,
      confidence: 0,
      suggestedActions: ["Talk to a human"],
      sources: [],
      handoff: true,
    });
    const stats = (await t.app.inject({ method: "GET", url: "/api/ai/stats", headers: bearer(org.token) })).json();
    expect(stats.console_answers).toBe(1);
  });

  it("the hand-off threshold decides: a demanding one hands off what a lenient one answers", async () => {
    const org = await registerOrg(t.app);
    await addArticle(t, org.user.organizationId, SHOP_ARTICLES[3]);
    const question = "shipping to europe";
    const lenient = await answer(org.token, question);
    expect(lenient.handoff).toBe(false);
    await put(org.token, { handoff_threshold: Math.min(1, lenient.confidence + 0.001) });
    const strict = await answer(org.token, question);
    expect(strict.handoff).toBe(true);
    expect(strict.confidence).toBeCloseTo(lenient.confidence, 5);
  });
});

describe("GET /api/ai/stats", () => {
  it("measures the resolution rate of the last 30 days from customers' answers, per organization", async () => {
    const org = await registerOrg(t.app);
    const agent = await agentSession(t, org.user.organizationId);
    const statsOf = async (token: string) =>
      (await t.app.inject({ method: "GET", url: "/api/ai/stats", headers: bearer(token) })).json() as AiStatsAnswer;
    expect(await statsOf(agent.token)).toEqual({
      days: 30,
      answers: 0,
      resolved: 0,
      handed_off: 0,
      resolution_rate: null,
      average_confidence: null,
      console_answers: 0,
      rated_helpful: 0,
      rated_unhelpful: 0,
    });
    const logged = (channel: "chat" | "portal" | "demo" | "console", handoff: boolean, daysAgo = 0) => ({
      organizationId: org.user.organizationId,
      channel,
      question: "q",
      confidence: handoff ? 0.2 : 0.9,
      handoff,
      provider: "embedded",
      latencyMs: 3,
      createdAt: new Date(Date.now() - daysAgo * 86_400_000),
    });
    await t.database.db.insert(aiAnswers).values([
      logged("chat", false),
      logged("portal", false),
      logged("chat", true),
      // Older than 30 days: no longer counted.
      logged("chat", true, 31),
    ]);
    // Questions asked in the console are logged, and counted apart from customers'.
    await addArticle(t, org.user.organizationId, SHOP_ARTICLES[0]);
    await answer(org.token, "How do I return an item?");
    await answer(org.token, "Tell me about quantum physics");
    const stats = await statsOf(agent.token);
    expect(stats).toMatchObject({ days: 30, answers: 3, resolved: 2, handed_off: 1, console_answers: 2 });
    expect(stats.resolution_rate).toBeCloseTo(2 / 3, 5);
    expect(stats.average_confidence).toBeCloseTo((0.9 + 0.9 + 0.2) / 3, 5);
    // Another organization's figures are its own.
    const other = await registerOrg(t.app);
    expect(await statsOf(other.token)).toMatchObject({ answers: 0, console_answers: 0 });
  });

  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/ai/stats" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/ai/settings" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "PUT", url: "/api/ai/settings", payload: { enabled: false } })).statusCode,
    ).toBe(401);
  });
});

// Last: it spends this address's public allowance for the minute.
describe("public rate limit", () => {
  it("limits signed-out questions per address with a clear 429, and never limits staff", async () => {
    await demoOrganization(t);
    let limited: Awaited<ReturnType<typeof ask>> | undefined;
    for (let i = 0; i <= PUBLIC_ASKS_PER_MINUTE && !limited; i++) {
      const res = await ask(null, "Can I rent a canoe?");
      if (res.statusCode === 429) limited = res;
      else expect(res.statusCode).toBe(200);
    }
    expect(limited?.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(limited?.json().error).toMatch(/^Too many requests/);
    expect((await ask(shop.token, "Where is my order?")).statusCode).toBe(200);
  });
});
