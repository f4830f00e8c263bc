import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { kbArticles } from "../../src/db/schema/kb.ts";
import { indexEncoded, sentenceReadings } from "../../src/modules/ai/index-cache.ts";
import { encodeSentences, pauseIndexWork } from "../../src/modules/ai/sentence-encoder.ts";
import { createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { addArticle, askAssistant, SHOP_ARTICLES } from "../support/kb-fixtures.ts";

/**
 * Issue 35, item 5: after 50 articles were loaded, every question waited the full AI_ENCODER_WAIT_MS and was then
 * answered from words alone. With the setting at its default, a question after a bulk change is answered at once
 * with the vectors of the articles that did not change; the new and edited ones are read from their words until
 * theirs are encoded. The encoder's index work is paused meanwhile, so "still encoding" is certain, not a race.
 */
describe("no wait for the encoder after a bulk change", () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof registerOrg>>;
  let resume: (() => void) | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await registerOrg(t.app);
    for (const a of SHOP_ARTICLES) await addArticle(t, shop.user.organizationId, a);
  });
  afterEach(() => {
    resume?.();
    resume = undefined;
    vi.unstubAllEnvs();
  });
  afterAll(() => t.close());

  it("answers at once from the vectors there are, reads new and edited articles from words, then from theirs", {
    timeout: 90_000,
  }, async () => {
    const orgId = shop.user.organizationId;
    // Encoded once (the suite's setting waits for it), as a knowledge base is before its team imports more.
    await askAssistant(t, shop.token, "How do I send an item back?");
    expect(await indexEncoded(orgId)).toBeGreaterThan(0);

    // The setting as a deployment has it (unset), and the encoder busy with nothing but what is paused.
    vi.stubEnv("AI_ENCODER_WAIT_MS", "");
    resume = pauseIndexWork();
    for (let i = 0; i < 49; i++)
      await addArticle(t, orgId, {
        title: `Store opening hours in town ${i}`,
        body: `Our shop in town ${i} opens at nine and closes at six, Monday to Saturday.`,
      });
    await addArticle(t, orgId, {
      title: "Gift cards",
      body: "We sell gift cards from 10 to 500 dollars. They never expire and can be used online.",
    });
    // And one of the articles that had its vectors is edited.
    await t.database.db
      .update(kbArticles)
      .set({ body: "Send it back within 30 days for a full refund. Print the label from your account page." })
      .where(eq(kbArticles.title, "How to return an item"));

    const before = sentenceReadings();
    const unchanged = await askAssistant(t, shop.token, "When will my parcel arrive in Canada?");
    expect(unchanged.sources[0]?.title).toBe("International shipping");
    const added = await askAssistant(t, shop.token, "Do you sell gift cards?");
    expect(added.sources[0]?.title).toBe("Gift cards");
    const edited = await askAssistant(t, shop.token, "Can I get a refund if I send it back?");
    expect(edited.sources[0]?.title).toBe("How to return an item");
    const during = sentenceReadings();
    // Each was read with the unchanged articles' vectors while the rest was being encoded; none waited.
    expect(during.partly - before.partly).toBe(3);
    expect(during.waited).toBe(before.waited);
    expect(during.words).toBe(before.words);

    resume();
    resume = undefined;
    // Only what the bulk change added is encoded: the rest was lent by the previous index.
    const encoded = await indexEncoded(orgId);
    expect(encoded).toBeGreaterThan(0);
    expect(encoded).toBeLessThan(60 * 3);
    await askAssistant(t, shop.token, "Do you sell gift cards?");
    expect(sentenceReadings().encoded).toBe(during.encoded + 1);
  });
});

describe("the encoder's queue", () => {
  it("encodes an edit's texts before a whole knowledge base's queued ahead of them", async () => {
    await encodeSentences(["warm up"], "question");
    const order: string[] = [];
    const resume = pauseIndexWork();
    const whole = encodeSentences(
      Array.from({ length: 48 }, (_, i) => `Sentence ${i} of a knowledge base encoded after a restart.`),
      "index",
    ).then(() => order.push("whole knowledge base"));
    const edit = encodeSentences(["The article a person just edited."], "edit").then(() => order.push("edit"));
    resume();
    await Promise.all([whole, edit]);
    expect(order).toEqual(["edit", "whole knowledge base"]);
  });
});
