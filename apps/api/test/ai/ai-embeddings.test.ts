import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { findCandidates } from "../../src/modules/ai/candidates.ts";
import { CALIBRATION_WITH_SENTENCES, calibrationFor, signalsOf } from "../../src/modules/ai/confidence.ts";
import { endpointUsable, forgetEndpointFailure } from "../../src/modules/ai/embeddings-endpoint.ts";
import { loadEncoderCalibration, writeEncoderCalibration } from "../../src/modules/ai/encoder-calibration.ts";
import { forgetOrganizationIndex, indexEncoded, indexEncoder } from "../../src/modules/ai/index-cache.ts";
import { buildIndex, type KbArticle, queryTerms, search, unitScores } from "../../src/modules/ai/retrieval.ts";
import { encodeTexts, SENTENCE_DIMENSIONS, SENTENCE_ENCODER_NAME } from "../../src/modules/ai/sentence-encoder.ts";
import { encodeIndex, vectorKey } from "../../src/modules/ai/sentences.ts";
import { wordVectors } from "../../src/modules/ai/word-vectors.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { type EmbeddingsServer, startEmbeddingsServer } from "../support/embeddings-server.ts";
import { addArticle, askAssistant, SHOP_ARTICLES } from "../support/kb-fixtures.ts";
import { memoryStore } from "../support/memory-vector-store.ts";

const articles: KbArticle[] = SHOP_ARTICLES.map((a, i) => ({ ...a, id: `a${i}`, questions: [] }));
const MODEL = "local-embed";
const ENCODER = `embeddings:${MODEL}`;

let server: EmbeddingsServer;
beforeAll(async () => {
  server = await startEmbeddingsServer({ apiKey: "sk-local" });
});
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv("AI_EMBEDDINGS_URL", server.url);
  vi.stubEnv("AI_EMBEDDINGS_MODEL", MODEL);
  vi.stubEnv("AI_EMBEDDINGS_KEY", "sk-local");
  vi.stubEnv("AI_EMBEDDINGS_TIMEOUT_MS", "10000");
  server.behaviour = "answer";
  server.requests = [];
  forgetEndpointFailure();
});
afterEach(() => {
  vi.unstubAllEnvs();
  forgetEndpointFailure();
});

describe("an embeddings endpoint as the sentence encoder", () => {
  it("encodes a knowledge base there in batches, keeps its vectors under the model's name, and answers with them", async () => {
    const store = memoryStore();
    const index = buildIndex(articles, wordVectors());
    const texts = index.texts.filter(Boolean).length;
    expect(await encodeIndex(index, { store })).toBe(texts);
    expect(index.sentences?.encoder).toBe(ENCODER);
    expect(index.sentences?.dimensions).toBe(64);
    // Batched (at most 64 texts a request), with the model and the key.
    expect(server.requests.length).toBe(Math.ceil(texts / 64));
    expect(server.requests.every((r) => r.inputs <= 64 && r.model === MODEL)).toBe(true);
    expect(server.requests[0]?.authorization).toBe("Bearer sk-local");
    // Stored like the embedded encoder's, under keys of this model, one byte per dimension.
    await vi.waitFor(() => expect(store.rows.size).toBe(new Set(index.texts.filter(Boolean)).size));
    const title = articles[3]?.title ?? "";
    expect(store.rows.get(vectorKey(title, ENCODER))?.length).toBe(64);
    expect(store.rows.has(vectorKey(title))).toBe(false);

    const question = await encodeTexts(["Do you ship to Canada?"], "question");
    expect(question?.encoder).toBe(ENCODER);
    const query = queryTerms(index, "Do you ship to Canada?", undefined, question?.rows ?? null);
    expect(query.encoder).toBe(ENCODER);
    const [best] = findCandidates(
      index,
      "shop",
      "Do you ship to Canada?",
      [],
      new Map([["Do you ship to Canada?", question?.rows ?? null]]),
    );
    expect(best?.title).toBe("International shipping");
  });

  it("a question is encoded by the embedded encoder when the endpoint is too slow, and the endpoint is put aside", async () => {
    server.behaviour = "slow";
    server.slowMs = 5_000;
    vi.stubEnv("AI_EMBEDDINGS_TIMEOUT_MS", "500");
    const question = await encodeTexts(["Do you ship to Canada?"], "question");
    expect(question?.encoder).toBe(SENTENCE_ENCODER_NAME);
    expect(question?.dimensions).toBe(SENTENCE_DIMENSIONS);
    expect(endpointUsable()).toBeNull();
    // Put aside: the next question does not try it again.
    const asked = server.requests.length;
    expect((await encodeTexts(["Where is my order?"], "question"))?.encoder).toBe(SENTENCE_ENCODER_NAME);
    expect(server.requests.length).toBe(asked);
  });

  it.each([
    ["error", "a 500"],
    ["not-json", "an answer that is not JSON"],
    ["wrong-dimension", "vectors of two dimensions"],
  ] as const)("an index's work stops on %s (%s): none of it is another encoder's", async (behaviour, _what) => {
    server.behaviour = behaviour;
    const index = buildIndex(articles, wordVectors());
    expect(await encodeIndex(index)).toBeNull();
    expect(index.sentences).toBeNull();
    expect(endpointUsable()).toBeNull();
    // Meanwhile the embedded encoder is the one new work goes to: the next index is encoded by it.
    const next = buildIndex(articles, wordVectors());
    expect(await encodeIndex(next, { previous: index })).toBe(next.texts.filter(Boolean).length);
    expect(next.sentences?.encoder).toBe(SENTENCE_ENCODER_NAME);
  });

  it("a change of model encodes everything again and drops the old model's vectors, keeping the embedded ones", async () => {
    const store = memoryStore();
    const first = buildIndex(articles, wordVectors());
    const texts = first.texts.filter(Boolean).length;
    await encodeIndex(first, { store });
    await vi.waitFor(() => expect(store.rows.size).toBe(new Set(first.texts.filter(Boolean)).size));
    // The embedded encoder's vectors of the same knowledge base, stored while the endpoint was down.
    server.behaviour = "error";
    expect((await encodeTexts(["Where is my order?"], "question"))?.encoder).toBe(SENTENCE_ENCODER_NAME);
    const embedded = buildIndex(articles, wordVectors());
    await encodeIndex(embedded, { store, previous: first });
    expect(embedded.sentences?.encoder).toBe(SENTENCE_ENCODER_NAME);
    server.behaviour = "answer";
    forgetEndpointFailure();
    const both = new Set(first.texts.filter(Boolean)).size * 2;
    await vi.waitFor(() => expect(store.rows.size).toBe(both));

    vi.stubEnv("AI_EMBEDDINGS_MODEL", "another-embed");
    const changed = buildIndex(articles, wordVectors());
    // Nothing lent by the old model's index, nothing read from its stored vectors.
    expect(await encodeIndex(changed, { store, previous: first })).toBe(texts);
    expect(changed.sentences?.encoder).toBe("embeddings:another-embed");
    const title = articles[0]?.title ?? "";
    await vi.waitFor(() => expect(store.rows.has(vectorKey(title, ENCODER))).toBe(false));
    expect(store.rows.has(vectorKey(title, "embeddings:another-embed"))).toBe(true);
    expect(store.rows.has(vectorKey(title))).toBe(true);
    expect(store.rows.size).toBe(both);
  });

  it("never compares a question's vector with an index's of another encoder", async () => {
    const index = buildIndex(articles, wordVectors());
    await encodeIndex(index);
    const embedded = await encodeTexts(["Do you ship to Canada?"], "question", {}, SENTENCE_ENCODER_NAME);
    const query = queryTerms(index, "Do you ship to Canada?", undefined, embedded?.rows ?? null);
    expect(query.sentence).toBeNull();
    expect(query.encoder).toBeNull();
  });

  it("reads the model's refitted calibration from its file, and not another model's", async () => {
    const file = `/tmp/cove-test-calibration-${process.pid}.json`;
    const calibration = { ...CALIBRATION_WITH_SENTENCES, bias: -1.234 };
    writeEncoderCalibration(file, {
      encoder: ENCODER,
      dimensions: 64,
      fittedAt: new Date().toISOString(),
      questions: 10,
      calibration,
    });
    expect(loadEncoderCalibration(file, "another-embed")).toBe("other-model");
    expect(loadEncoderCalibration(file, MODEL)).toBe("loaded");
    const index = buildIndex(articles, wordVectors());
    await encodeIndex(index);
    const question = await encodeTexts(["Do you ship to Canada?"], "question");
    const query = queryTerms(index, "Do you ship to Canada?", undefined, question?.rows ?? null);
    const [hit] = search(index, unitScores(index, query), 1);
    expect(calibrationFor(signalsOf(query, hit)).bias).toBe(-1.234);
    expect(loadEncoderCalibration("/tmp/cove-no-such-calibration.json", MODEL)).toBe("missing");
    expect(calibrationFor(signalsOf(query, hit))).toBe(CALIBRATION_WITH_SENTENCES);
  });

  it("is configured with a model, a URL and a timeout, or not at all", () => {
    expect(loadConfig({ AI_EMBEDDINGS_URL: server.url, AI_EMBEDDINGS_MODEL: MODEL }).embeddings?.model).toBe(MODEL);
    expect(() => loadConfig({ AI_EMBEDDINGS_URL: server.url })).toThrow(/AI_EMBEDDINGS_MODEL: required/);
    expect(() => loadConfig({ AI_EMBEDDINGS_MODEL: MODEL })).toThrow(/AI_EMBEDDINGS_URL: required/);
    expect(() => loadConfig({ AI_EMBEDDINGS_URL: "localhost", AI_EMBEDDINGS_MODEL: MODEL })).toThrow(
      /AI_EMBEDDINGS_URL: must be a URL/,
    );
    expect(() => loadConfig({ AI_EMBEDDINGS_TIMEOUT_MS: "5" })).toThrow(/AI_EMBEDDINGS_TIMEOUT_MS: must be between/);
  });
});

describe("the assistant with an embeddings endpoint", () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof registerOrg>>;
  beforeAll(async () => {
    t = await createTestApp();
    shop = await registerOrg(t.app);
    for (const a of SHOP_ARTICLES) await addArticle(t, shop.user.organizationId, a);
    // The local server's "model" is not the one the calibration was fitted for: this test reads the ranking only.
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/ai/settings",
      headers: bearer(shop.token),
      payload: { handoff_threshold: 0 },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => t.close());

  it("answers with the endpoint's vectors, and at once from the embedded encoder's when the endpoint fails", async () => {
    const orgId = shop.user.organizationId;
    const up = await askAssistant(t, shop.token, "Do you ship to Canada?");
    expect(up.sources[0]?.title).toBe("International shipping");
    expect(indexEncoder(orgId)).toBe(ENCODER);

    server.behaviour = "error";
    forgetOrganizationIndex(orgId);
    // Answered (askAssistant checks the 200) however the endpoint fails: from words, or the embedded encoder's
    // vectors, whichever the failure left; it is then put aside, and the next question is read with the embedded
    // encoder on both sides.
    await askAssistant(t, shop.token, "Do you ship to Canada?");
    expect(endpointUsable()).toBeNull();
    const down = await askAssistant(t, shop.token, "Do you ship to Canada?");
    expect(down.sources[0]?.title).toBe("International shipping");
    expect(indexEncoder(orgId)).toBe(SENTENCE_ENCODER_NAME);
    expect(await indexEncoded(orgId)).not.toBeNull();
  });
});
