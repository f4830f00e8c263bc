import { describe, expect, it } from "vitest";
import { findCandidates, readingsOf } from "../../src/modules/ai/candidates.ts";
import { CALIBRATION, CALIBRATION_WITH_SENTENCES, calibrationFor, signalsOf } from "../../src/modules/ai/confidence.ts";
import { keptOnceLoaded, loadModel, type Model } from "../../src/modules/ai/encoder-model.ts";
import { organizationIndex, sentencesReady } from "../../src/modules/ai/index-cache.ts";
import { buildIndex, type KbArticle, queryTerms, search, unitScores } from "../../src/modules/ai/retrieval.ts";
import { encoderThread, encodeSentences, SENTENCE_DIMENSIONS } from "../../src/modules/ai/sentence-encoder.ts";
import { CENTRE_SHRINK, encodeIndex, sentenceQuery, sentenceSimilarity } from "../../src/modules/ai/sentences.ts";
import { wordVectors } from "../../src/modules/ai/word-vectors.ts";
import { SHOP_ARTICLES } from "../support/kb-fixtures.ts";

// The shop's articles as a small business writes them at first: a title and a body, no example questions.
const articles: KbArticle[] = SHOP_ARTICLES.map((a, i) => ({ ...a, id: `a${i}`, questions: [] }));
const D = SENTENCE_DIMENSIONS;

async function vector(text: string): Promise<Float32Array> {
  const rows = await encodeSentences([text], "question");
  if (!rows) throw new Error("the sentence encoder is unavailable");
  return rows;
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, v, d) => s + v * (b[d] ?? 0), 0);

describe("the sentence encoder", () => {
  it("puts a question near another way of asking it, with no word in common, and far from another subject", async () => {
    const rows = await encodeSentences(
      ["When will my parcel arrive?", "How long does shipping take?", "How do I reset my password?", ""],
      "question",
    );
    expect(rows).not.toBeNull();
    const row = (i: number) => (rows as Float32Array).subarray(i * D, (i + 1) * D);
    expect(cosine(row(0), row(0))).toBeCloseTo(1, 5);
    expect(cosine(row(0), row(1))).toBeGreaterThan(cosine(row(0), row(2)) + 0.2);
    // An empty text has nothing to read: a zero row, which matches nothing.
    expect(row(3).every((v) => v === 0)).toBe(true);
  });

  it("answers a question before index work queued ahead of it", async () => {
    const order: string[] = [];
    const texts = Array.from({ length: 48 }, (_, i) => `Article sentence number ${i} about returns and refunds.`);
    const index = encodeSentences(texts, "index").then(() => order.push("index"));
    const question = encodeSentences(["Where is my order?"], "question").then(() => order.push("question"));
    await Promise.all([index, question]);
    expect(order).toEqual(["question", "index"]);
  });

  it("starts a new thread when its thread dies, and answers what was waiting with null (words alone)", async () => {
    await vector("warm up");
    const first = encoderThread();
    expect(first).not.toBeNull();
    const waiting = encodeSentences(
      Array.from({ length: 64 }, (_, i) => `text ${i}`),
      "index",
    );
    await first?.terminate();
    expect(await waiting).toBeNull();
    const again = await encodeSentences(["Where is my order?"], "question");
    expect(again).not.toBeNull();
    expect(encoderThread()).not.toBe(first);
  });
});

describe("loading the encoder's model", () => {
  const fake: Model = { embed: async () => [] };

  it("reads the weights only once the backend is ready (else the load fails on a busy machine)", async () => {
    const order: string[] = [];
    let backendReady = () => {};
    const ready = new Promise<void>((resolve) => {
      backendReady = resolve;
    });
    const loading = loadModel({
      ready: () => ready.then(() => order.push("backend")),
      initModel: async () => {
        order.push("weights");
        return fake;
      },
      modelSource: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    backendReady();
    expect(await loading).toBe(fake);
    expect(order).toEqual(["backend", "weights"]);
  });

  it("tries again after a load failed, and keeps the model once loaded", async () => {
    let loads = 0;
    const model = keptOnceLoaded(async () => {
      loads++;
      if (loads === 1) throw new Error("Backend 'wasm' has not yet been initialized");
      return fake;
    });
    await expect(model()).rejects.toThrow(/wasm/);
    expect(await model()).toBe(fake);
    expect(await model()).toBe(fake);
    expect(loads).toBe(2);
  });
});

describe("retrieval with sentence vectors", () => {
  it("finds the article a question means when it shares no word with it", async () => {
    const index = buildIndex(articles, wordVectors());
    expect(await encodeIndex(index)).toBe(index.texts.filter(Boolean).length);
    const byWords = (question: string) =>
      index.articles[search(index, unitScores(index, queryTerms(index, question)), 1)[0]?.article ?? -1]?.title;
    const byMeaning = async (question: string) => {
      const query = queryTerms(index, question, undefined, await vector(question));
      return index.articles[search(index, unitScores(index, query), 1)[0]?.article ?? -1]?.title;
    };
    // No article uses "postage" or "Japan", nor a word WordNet relates to them: words alone pick the returns article
    // (it mentions shipping labels and countries); the sentence does not.
    expect(byWords("How much is postage to Japan?")).toBe("How to return an item");
    expect(await byMeaning("How much is postage to Japan?")).toBe("International shipping");
    // "Germany" too; words alone are a near tie there now: WordNet puts Germany in the European Union, which the
    // article names, and also reads "deliver" as "return".
    expect(await byMeaning("Do you deliver to Germany?")).toBe("International shipping");
  });

  it("keeps a byte per dimension, within 0.01 of the full-precision cosines, plain and centred", async () => {
    const index = buildIndex(articles, wordVectors());
    await encodeIndex(index);
    const sentences = index.sentences;
    if (!sentences) throw new Error("no sentence vectors");
    const q = await vector("Can I send this back?");
    const query = sentenceQuery(sentences, q);
    const exact = await encodeSentences(index.texts.filter(Boolean), "index");
    const centre = sentences.centre;
    const centred = (v: Float32Array) => Float32Array.from(v, (x, d) => x - (centre[d] ?? 0));
    const length = (v: Float32Array) => Math.sqrt(cosine(v, v));
    let k = 0;
    index.texts.forEach((text, id) => {
      if (!text) return;
      const row = (exact as Float32Array).subarray(k * D, (k + 1) * D);
      const match = sentenceSimilarity(sentences, id, query);
      expect(Math.abs(match.plain - cosine(q, row))).toBeLessThan(0.01);
      const [u, v] = [centred(row), centred(q)];
      expect(Math.abs(match.centred - cosine(u, v) / (length(u) * length(v)))).toBeLessThan(0.01);
      k++;
    });
    expect(sentences.values.length).toBe(index.units.length * D);
  });

  it("takes away what the articles share, less of it in a small knowledge base", async () => {
    const many = buildIndex(articles, wordVectors());
    await encodeIndex(many);
    const one = buildIndex(articles.slice(0, 1), wordVectors());
    await encodeIndex(one);
    const n = articles.length;
    const shares = (index: typeof many, count: number) => {
      const sentences = index.sentences;
      if (!sentences) throw new Error("no sentence vectors");
      // The centre is the mean of the unit-length rows (not the whole-article ones) times n / (n + shrink).
      const rows = index.units.flatMap((unit, id) => (unit.kind === "article" ? [] : [id]));
      const mean = new Float32Array(D);
      for (const id of rows)
        for (let d = 0; d < D; d++)
          mean[d] = (mean[d] ?? 0) + (sentences.values[id * D + d] ?? 0) / (sentences.norms[id] ?? 1) / rows.length;
      const expected = count / (count + CENTRE_SHRINK.articles);
      sentences.centre.forEach((c, d) => {
        expect(c).toBeCloseTo((mean[d] ?? 0) * expected, 5);
      });
      return expected;
    };
    expect(shares(one, 1)).toBeLessThan(shares(many, n));
    // With one article, a question about it still matches it well once the centre is taken away.
    const q = await vector("How do I send an item back?");
    const sentences = one.sentences;
    if (!sentences) throw new Error("no sentence vectors");
    const title = one.units.findIndex((u) => u.kind === "title");
    expect(sentenceSimilarity(sentences, title, sentenceQuery(sentences, q)).centred).toBeGreaterThan(0.4);
  });

  it("reads the whole-article unit as the mean of the article's others, not by encoding the article again", async () => {
    const index = buildIndex(articles, wordVectors());
    const wholes = index.units.filter((u) => u.kind === "article").length;
    expect(wholes).toBe(articles.length);
    expect(await encodeIndex(index)).toBe(index.units.length - wholes);
    index.units.forEach((unit, id) => {
      if (unit.kind === "article") expect(index.sentences?.norms[id]).toBeGreaterThan(0);
    });
  });

  it("re-encodes only what changed when an article is edited", async () => {
    const before = buildIndex(articles, wordVectors());
    await encodeIndex(before);
    const edited = articles.map((a, i) => (i === 0 ? { ...a, questions: ["Can I send this back?"] } : a));
    const after = buildIndex(edited, wordVectors());
    expect(await encodeIndex(after, { previous: before })).toBe(1);
    const question = await vector("Can I send this back?");
    const [hit] = search(after, unitScores(after, queryTerms(after, "Can I send this back?", undefined, question)), 1);
    expect(after.articles[hit?.article ?? -1]?.title).toBe("How to return an item");
  });

  it("uses the sentence vector only when the index has its own, and calibrates each way apart", async () => {
    const index = buildIndex(articles, wordVectors());
    const q = await vector("Do you deliver to Germany?");
    // The index is not encoded yet: the question is read from its words, with the words' calibration.
    const early = queryTerms(index, "Do you deliver to Germany?", undefined, q);
    expect(early.sentence).toBeNull();
    const [top] = search(index, unitScores(index, early), 1);
    expect(calibrationFor(signalsOf(early, top))).toBe(CALIBRATION);
    await encodeIndex(index);
    const late = queryTerms(index, "Do you deliver to Germany?", undefined, q);
    expect(late.sentence).toBe(q);
    expect(calibrationFor(signalsOf(late, top))).toBe(CALIBRATION_WITH_SENTENCES);
  });

  it("reads a short follow-up with the previous question, and both readings are encoded", async () => {
    const conversation = [{ role: "user" as const, content: "Do you ship to Canada?" }];
    const readings = readingsOf("and how long does it take?", conversation);
    expect(readings).toEqual(["and how long does it take?", "Do you ship to Canada? and how long does it take?"]);
    expect(readingsOf("How do I reset my password?", conversation)).toEqual(["How do I reset my password?"]);
    const index = buildIndex(articles, wordVectors());
    await encodeIndex(index);
    const rows = await encodeSentences(readings, "question");
    const map = new Map(readings.map((r, k) => [r, rows?.slice(k * D, (k + 1) * D) ?? null]));
    const [best] = findCandidates(index, "shop", readings[0] as string, conversation, map);
    expect(best?.title).toBe("International shipping");
  });

  it("the index cache encodes a new index in the background, and a question can wait for it", async () => {
    const index = await organizationIndex("org-sentences", "stamp-1", async () => articles);
    await sentencesReady(index, 60_000);
    expect(index.sentences?.values.length).toBe(index.units.length * D);
    // The same knowledge base with one article more: the rest is lent by the previous index.
    const more = [
      ...articles,
      { ...articles[0], id: "new", title: "Gift cards", body: "We sell gift cards." } as KbArticle,
    ];
    const next = await organizationIndex("org-sentences", "stamp-2", async () => more);
    await sentencesReady(next, 60_000);
    expect(next.sentences?.values.length).toBe(next.units.length * D);
  });

  it("stops encoding an index that was replaced, and its successor takes over what it had done", async () => {
    const first = buildIndex(articles, wordVectors());
    let checks = 0;
    // Wanted for its first chunk only, as if an article changed while it was encoding.
    expect(await encodeIndex(first, { wanted: () => checks++ < 1 })).toBeNull();
    expect(first.sentences).toBeNull();
    const second = buildIndex(articles, wordVectors());
    const texts = second.texts.filter(Boolean).length;
    // One chunk of 8 texts was done; the successor encodes the rest only.
    expect(await encodeIndex(second, { previous: first })).toBe(texts - 8);
    expect(second.sentences?.values.length).toBe(second.units.length * D);
  });

  it("the index cache stops the work of an index replaced before it was encoded", async () => {
    const first = await organizationIndex("org-replaced", "stamp-1", async () => articles);
    const edited = articles.map((a, i) => (i === 0 ? { ...a, questions: ["Can I send this back?"] } : a));
    const second = await organizationIndex("org-replaced", "stamp-2", async () => edited);
    await sentencesReady(second, 60_000);
    await sentencesReady(first, 60_000);
    expect(second.sentences?.values.length).toBe(second.units.length * D);
    // The first index was replaced before its work was done: it stopped, and nothing waits on it.
    expect(first.sentences).toBeNull();
  });
});
