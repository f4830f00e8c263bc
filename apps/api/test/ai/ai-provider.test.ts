import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aiAnswers } from "../../src/db/schema/ai.ts";
import { parseModelReply, withoutInventedLinks } from "../../src/modules/ai/openai.provider.ts";
import { REPLIES } from "../../src/modules/ai/provider.ts";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { type ChatCompletionsServer, startChatCompletionsServer } from "../support/chat-completions-server.ts";
import { addArticle, SHOP_ARTICLES, SHOP_RENTALS } from "../support/kb-fixtures.ts";

const API_KEY = "sk-test-local-0123456789";
// Well under the slow model's 10 s, and well over a local answer's time on a busy 2-core machine (400 ms fell back under load).
const TIMEOUT_MS = 1_500;

let model: ChatCompletionsServer;
let t: TestApp;
let org: Awaited<ReturnType<typeof registerOrg>>;
let returnsId: string;

beforeAll(async () => {
  model = await startChatCompletionsServer({ apiKey: API_KEY });
  t = await createTestApp({
    ai: { provider: "openai", baseUrl: model.url, apiKey: API_KEY, model: "cove-test-model", timeoutMs: TIMEOUT_MS },
  });
  org = await registerOrg(t.app);
  const created = [];
  for (const a of SHOP_ARTICLES) created.push(await addArticle(t, org.user.organizationId, a));
  returnsId = created[0]?.id ?? "";
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => {
  model.behaviour = "answer";
  model.requests.length = 0;
});

async function ask(message: string): Promise<AiResponseAnswer> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/chat/ai-response",
    headers: bearer(org.token),
    payload: { message, customerInfo: { plan: "business" } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiResponseAnswer;
}

async function lastProvider(): Promise<string | undefined> {
  const [row] = await t.database.db
    .select({ provider: aiAnswers.provider })
    .from(aiAnswers)
    .where(eq(aiAnswers.organizationId, org.user.organizationId))
    .orderBy(desc(aiAnswers.createdAt))
    .limit(1);
  return row?.provider;
}

describe("OpenAI-compatible provider (against a local chat-completions server)", () => {
  it("answers in the model's words with the articles it cited, after sending it only the retrieved articles", async () => {
    const reply = await ask("What is your return policy?");
    expect(reply.handoff).toBe(false);
    // The local model answers with the passage it was given as most relevant, so this is the model's text.
    expect(reply.response).toMatch(/^From our help center: \S/);
    expect(reply.response).not.toMatch(/^Here's what our help article/);
    expect(reply.sources.map((s) => s.id)).toEqual([returnsId]);
    expect(reply.suggestedActions).toEqual(["Read: How to return an item", "Talk to a human"]);
    expect(await lastProvider()).toBe("openai");

    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0];
    expect(sent?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent?.body.model).toBe("cove-test-model");
    expect(sent?.body.temperature).toBe(0);
    const [system, user] = sent?.body.messages ?? [];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("using only the numbered knowledge base articles");
    expect(system?.content).toContain("Never state a policy, price");
    expect(user?.content).toContain("[1] How to return an item");
    expect(user?.content).toContain(`URL: /help/${org.user.organizationSlug}/articles/`);
    expect(user?.content).toContain("The customer's plan: business");
    expect(user?.content).toMatch(/Customer question: What is your return policy\?$/);
  });

  it("gives the model the passage that answers what was asked first, before the whole article", async () => {
    const rentals = await registerOrg(t.app);
    for (const a of [...SHOP_ARTICLES, SHOP_RENTALS]) await addArticle(t, rentals.user.organizationId, a);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-response",
      headers: bearer(rentals.token),
      payload: { message: "How much is a weekend e-bike rental?" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as AiResponseAnswer;
    // The local model answers with the passage it was given as most relevant.
    expect(reply.response).toMatch(/^From our help center: /);
    expect(reply.response).toContain("$110");
    expect(reply.sources.map((s) => s.title)).toEqual(["E-bike rentals"]);
    const user = model.requests[0]?.body.messages?.at(-1)?.content ?? "";
    const best = /\[1\] E-bike rentals\nURL: [^\n]*\nMost relevant passage: ([\s\S]*?)\nFull article:\n/.exec(user);
    expect(best?.[1]).toContain("- Weekend (Friday 4 pm to Monday 10 am): $110");
    expect(best?.[1]).not.toContain("We rent e-bikes by the day or the weekend");
  });

  it("accepts a reply wrapped in a code fence", async () => {
    model.behaviour = "fenced";
    const reply = await ask("Where is my order?");
    expect(reply.response).toMatch(/^Per our article: /);
    expect(await lastProvider()).toBe("openai");
  });

  it("falls back to the embedded answer when the model times out", async () => {
    model.behaviour = "slow";
    model.slowMs = 10_000;
    const started = Date.now();
    const reply = await ask("What is your return policy?");
    // Not a speed check: the answer came without waiting for the model's 10 s.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(reply.handoff).toBe(false);
    expect(reply.response).toMatch(/^Here's what our help article "How to return an item" says:/);
    expect(reply.response).not.toMatch(/Slowly/);
    expect(reply.sources.map((s) => s.id)).toEqual([returnsId]);
    expect(await lastProvider()).toBe("embedded-fallback");
  });

  it("falls back when the model answers with an error", async () => {
    model.behaviour = "error";
    const reply = await ask("What is your return policy?");
    expect(reply.sources.map((s) => s.id)).toEqual([returnsId]);
    expect(reply.response).toMatch(/^Here's what our help article "How to return an item" says:/);
    expect(await lastProvider()).toBe("embedded-fallback");
  });

  it("falls back when the reply is not the JSON asked for, or cites an article it was not given", async () => {
    for (const behaviour of ["not-json", "cite-unknown"] as const) {
      model.behaviour = behaviour;
      const reply = await ask("What is your return policy?");
      expect(reply.response, behaviour).not.toContain("just send it back whenever you like");
      expect(
        reply.sources.map((s) => s.id),
        behaviour,
      ).toEqual([returnsId]);
      expect(await lastProvider(), behaviour).toBe("embedded-fallback");
    }
  });

  it("removes a link the articles do not contain", async () => {
    model.behaviour = "invent-link";
    const reply = await ask("What is your return policy?");
    expect(reply.response).not.toContain("totally-made-up.example");
    expect(reply.response).toMatch(/Details:$/);
    expect(await lastProvider()).toBe("openai");
  });

  it("hands off when the model finds no answer in the articles", async () => {
    model.behaviour = "handoff";
    const reply = await ask("What is your return policy?");
    expect(reply).toMatchObject({ handoff: true, sources: [], response: REPLIES.noAnswer });
    expect(reply.confidence).toBeLessThanOrEqual(0.2);
  });

  it("does not call the model at all when no article is close enough", async () => {
    const reply = await ask("What is the airspeed velocity of an unladen swallow?");
    expect(reply.handoff).toBe(true);
    expect(model.requests).toHaveLength(0);
  });
});

describe("reply checks", () => {
  it("finds the JSON object in a reply with text around it", () => {
    expect(parseModelReply('Here you go:\n{"answer": "Yes.", "sources": [2], "handoff": false}\nBye')).toEqual({
      answer: "Yes.",
      sources: [2],
      handoff: false,
    });
    expect(() => parseModelReply("no json here")).toThrow();
    expect(() => parseModelReply('{"answer": 3}')).toThrow();
  });

  it("keeps links the articles contain and drops the others", () => {
    const candidate = {
      id: "00000000-0000-4000-8000-000000000000",
      title: "T",
      url: "/help/acme/articles/t",
      score: 1,
      confidence: 1,
      passage: "p",
      body: "See https://acme.example/returns for the form.",
    };
    expect(
      withoutInventedLinks("Use https://acme.example/returns. Or https://evil.example/x (https://evil.example/y).", [
        candidate,
      ]),
    ).toBe("Use https://acme.example/returns. Or.");
  });
});

describe("AI configuration", () => {
  it("defaults to the embedded provider and needs a base URL and model for the OpenAI-compatible one", () => {
    expect(loadConfig({}).ai).toEqual({ provider: "embedded" });
    expect(() => loadConfig({ AI_PROVIDER: "openai" })).toThrow(ConfigError);
    expect(() => loadConfig({ AI_PROVIDER: "openai" })).toThrow(/AI_BASE_URL: required when AI_PROVIDER is openai/);
    expect(() => loadConfig({ AI_PROVIDER: "gpt" })).toThrow(/AI_PROVIDER: use embedded or openai/);
    expect(() => loadConfig({ AI_TIMEOUT_MS: "5" })).toThrow(/AI_TIMEOUT_MS: must be between 100 and 120000/);
    expect(
      loadConfig({ AI_PROVIDER: "openai", AI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3" }).ai,
    ).toEqual({
      provider: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: undefined,
      model: "llama3",
      timeoutMs: 10_000,
    });
  });
});
