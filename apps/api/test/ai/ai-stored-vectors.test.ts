import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { aiSentenceVectors } from "../../src/db/schema/ai.ts";
import { prepareAssistant } from "../../src/modules/ai/ai.service.ts";
import { forgetOrganizationIndex, indexEncoded } from "../../src/modules/ai/index-cache.ts";
import { buildIndex, type SearchIndex } from "../../src/modules/ai/retrieval.ts";
import { SENTENCE_DIMENSIONS } from "../../src/modules/ai/sentence-encoder.ts";
import { encodeIndex, type VectorStore, vectorKey } from "../../src/modules/ai/sentences.ts";
import { wordVectors } from "../../src/modules/ai/word-vectors.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withTenant } from "../../src/platform/tenancy.ts";
import { createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { addArticle, askAssistant, SHOP_ARTICLES } from "../support/kb-fixtures.ts";
import { memoryStore } from "../support/memory-vector-store.ts";

const shopArticles = SHOP_ARTICLES.map((a, i) => ({ ...a, id: `a${i}`, questions: [] }));
const D = SENTENCE_DIMENSIONS;
const texts = (index: SearchIndex) => index.texts.filter(Boolean).length;

describe("a knowledge base's stored sentence vectors", () => {
  it("are saved once encoded, and a new index (after a restart) reads them instead of encoding", async () => {
    const store = memoryStore();
    const first = buildIndex(shopArticles, wordVectors());
    expect(await encodeIndex(first, { store })).toBe(texts(first));
    await vi.waitFor(() => expect(store.rows.size).toBe(new Set(first.texts.filter(Boolean)).size));
    const restarted = buildIndex(shopArticles, wordVectors());
    expect(await encodeIndex(restarted, { store })).toBe(0);
    // The same vectors, but for rounding: read back from bytes and stored as bytes again.
    const a = first.sentences;
    const b = restarted.sentences;
    if (!a || !b) throw new Error("no sentence vectors");
    first.units.forEach((_, id) => {
      let dot = 0;
      for (let d = 0; d < D; d++) dot += (a.values[id * D + d] ?? 0) * (b.values[id * D + d] ?? 0);
      expect(dot / ((a.norms[id] ?? 0) * (b.norms[id] ?? 0))).toBeGreaterThan(0.999);
    });
  });

  it("drop what an edit removed, and encode only what it added", async () => {
    const store = memoryStore();
    const before = buildIndex(shopArticles, wordVectors());
    await encodeIndex(before, { store });
    await vi.waitFor(() => expect(store.rows.size).toBeGreaterThan(0));
    const held = store.rows.size;
    const edited = shopArticles.map((a, i) => (i === 0 ? { ...a, title: "Sending an item back" } : a));
    const after = buildIndex(edited, wordVectors());
    expect(await encodeIndex(after, { store })).toBe(1);
    // The old title's vector is gone, the new one's is there: as many as before.
    await vi.waitFor(() => expect(store.rows.has(vectorKey("Sending an item back"))).toBe(true));
    expect(store.rows.has(vectorKey(shopArticles[0]?.title ?? ""))).toBe(false);
    expect(store.rows.size).toBe(held);
  });

  it("a store that fails is not fatal: the index is encoded as if it had none", async () => {
    const broken: VectorStore = {
      load: () => Promise.reject(new Error("connection lost")),
      save: () => Promise.reject(new Error("connection lost")),
    };
    const index = buildIndex(shopArticles, wordVectors());
    expect(await encodeIndex(index, { store: broken })).toBe(texts(index));
    expect(index.sentences).not.toBeNull();
  });
});

describe("stored sentence vectors in the database", () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof registerOrg>>;
  let other: Awaited<ReturnType<typeof registerOrg>>;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await registerOrg(t.app);
    other = await registerOrg(t.app);
    for (const a of SHOP_ARTICLES.slice(0, 4)) await addArticle(t, shop.user.organizationId, a);
  });
  afterAll(() => t.close());

  const ask = (token: string, message: string) => askAssistant(t, token, message);

  const storedCount = async (orgId: string) =>
    (
      await queryRows<{ n: number }>(
        t.database.db,
        // As the superuser of the test database: every organization's rows.
        sql`select count(*)::int as n from ai_sentence_vectors where organization_id = ${orgId}`,
      )
    )[0]?.n ?? 0;

  it("are written when a question builds the index, and read after a restart instead of encoding again", async () => {
    const orgId = shop.user.organizationId;
    const first = await ask(shop.token, "When will my parcel arrive in Canada?");
    expect(first.sources.length).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await storedCount(orgId)).toBeGreaterThan(0), { timeout: 30_000 });
    // A restart: the index in memory is gone; the next question rebuilds it from the database.
    forgetOrganizationIndex(orgId);
    const again = await ask(shop.token, "When will my parcel arrive in Canada?");
    expect(again.sources[0]?.id).toBe(first.sources[0]?.id);
    expect(again.confidence).toBeCloseTo(first.confidence, 2);
    // Its vectors were all read from the database: the encoder read no text of the knowledge base.
    expect(await indexEncoded(orgId)).toBe(0);
  });

  it("are prepared before the first question when asked to (the demo's, at start), and read back the next time", async () => {
    const fresh = await registerOrg(t.app);
    const orgId = fresh.user.organizationId;
    for (const a of SHOP_ARTICLES.slice(0, 2)) await addArticle(t, orgId, a);
    const encoded = await prepareAssistant(t.database.db, orgId);
    expect(encoded).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await storedCount(orgId)).toBe(encoded), { timeout: 30_000 });
    forgetOrganizationIndex(orgId);
    expect(await prepareAssistant(t.database.db, orgId)).toBe(0);
  });

  it("are the organization's own: another organization's transaction sees none of them", async () => {
    await vi.waitFor(async () => expect(await storedCount(shop.user.organizationId)).toBeGreaterThan(0), {
      timeout: 30_000,
    });
    const seen = await withTenant(
      t.database.db,
      { orgId: other.user.organizationId, userId: other.user.id, role: other.user.role },
      (ctx) => ctx.db.select({ key: aiSentenceVectors.key }).from(aiSentenceVectors),
    );
    expect(seen).toEqual([]);
    // Nor can it delete them by key.
    const [one] = await queryRows<{ key: string }>(
      t.database.db,
      sql`select key from ai_sentence_vectors where organization_id = ${shop.user.organizationId} limit 1`,
    );
    await withTenant(
      t.database.db,
      { orgId: other.user.organizationId, userId: other.user.id, role: other.user.role },
      (ctx) => ctx.db.delete(aiSentenceVectors).where(eq(aiSentenceVectors.key, one?.key ?? "")),
    );
    const kept = await queryRows(
      t.database.db,
      sql`select 1 from ai_sentence_vectors where organization_id = ${shop.user.organizationId} and key = ${one?.key}`,
    );
    expect(kept).toHaveLength(1);
  });
});
