import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findCandidates } from "../../src/modules/ai/candidates.ts";
import { CALIBRATION, confidenceOf, interpolate } from "../../src/modules/ai/confidence.ts";
import { asksForPerson } from "../../src/modules/ai/handoff-request.ts";
import {
  INDEX_CACHE_LIMITS,
  indexCacheSize,
  limitIndexCache,
  organizationIndex,
} from "../../src/modules/ai/index-cache.ts";
import { excerpt, plainText, splitPassages, splitSentences } from "../../src/modules/ai/passages.ts";
import { buildIndex, type KbArticle, queryTerms, search, unitScores } from "../../src/modules/ai/retrieval.ts";
import { parsePackageHead, wordVectors } from "../../src/modules/ai/word-vectors.ts";
import { SHOP_ARTICLES } from "../support/kb-fixtures.ts";

const articles: KbArticle[] = SHOP_ARTICLES.map((a, i) => ({ ...a, id: `a${i}` }));
const titleOf = (index: ReturnType<typeof buildIndex>, question: string) => {
  const [hit] = search(index, unitScores(index, queryTerms(index, question)), 1);
  return hit ? index.articles[hit.article]?.title : undefined;
};

describe("passages", () => {
  it("splits Markdown into plain-text passages under their headings, keeping a list with its lead-in", () => {
    const passages = splitPassages(
      [
        "# Returns",
        "You can return **unused** items. See [the form](https://acme.example/form) or [FAQ](/faq).",
        "",
        "To start a return:",
        "",
        "1. Sign in",
        "2. Open *Orders*",
        "",
        "## Costs",
        "| Option | Cost |",
        "|---|---|",
        "| Standard | $5 |",
        "```",
        "# not a heading",
        "```",
      ].join("\n"),
    );
    expect(passages.map(({ heading, text }) => ({ heading, text }))).toEqual([
      { heading: "Returns", text: "You can return unused items. See the form (https://acme.example/form) or FAQ." },
      { heading: "Returns", text: "To start a return:\n1. Sign in\n2. Open Orders" },
      { heading: "Costs", text: "Option, Cost\nStandard, $5\n# not a heading" },
    ]);
    // What an answer quotes is the passage's own Markdown.
    expect(passages.map((p) => p.markdown)).toEqual([
      "You can return **unused** items. See [the form](https://acme.example/form) or [FAQ](/faq).",
      "To start a return:\n1. Sign in\n2. Open *Orders*",
      "| Option | Cost |\n|---|---|\n| Standard | $5 |\n```\n# not a heading\n```",
    ]);
  });

  it("drops markup a reader would not see and keeps the text", () => {
    expect(plainText("<b>Bold</b> `code` ![logo](x.png) > quoted")).toBe("Bold code logo > quoted");
  });

  it("splits sentences and list items, joining fragments too short to stand alone", () => {
    expect(
      splitSentences("Refunds reach your card within five business days. Ask us.\n- Print the prepaid label at home"),
    ).toEqual(["Refunds reach your card within five business days.", "Ask us. Print the prepaid label at home"]);
  });

  it("cuts a long passage after a whole sentence", () => {
    const text = `${"First sentence is here. ".repeat(20)}End.`;
    const cut = excerpt(text, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/here\. …$/);
  });
});

describe("asking for a person", () => {
  it("recognises requests for a human", () => {
    for (const q of [
      "Can I talk to a person?",
      "I want to speak with a human",
      "agent please",
      "Human!",
      "connect me to support",
      "Can I speak to your manager?",
      "I need a real person",
      "get me someone who can help",
    ]) {
      expect(asksForPerson(q), q).toBe(true);
    }
  });

  it("leaves questions that merely mention people to the knowledge base", () => {
    for (const q of [
      "Are you a real person?",
      "How do I transfer money to someone?",
      "Can a person return an item bought by someone else?",
      "Where is my order?",
      "Who made you?",
    ]) {
      expect(asksForPerson(q), q).toBe(false);
    }
  });
});

describe("retrieval", () => {
  const index = buildIndex(articles, wordVectors());

  it("finds the article by its title, its alternative phrasings and its body", () => {
    expect(titleOf(index, "How do I return an item?")).toBe("How to return an item");
    expect(titleOf(index, "I forgot my password")).toBe("Resetting your password");
    expect(titleOf(index, "Are import duties collected on delivery?")).toBe("International shipping");
  });

  it("understands related words through the word vectors", () => {
    // No article says "parcel" or "come": only the word vectors relate the question to tracking a package.
    const withVectors = findCandidates(index, "shop", "my parcel hasn't come yet");
    const wordsOnly = findCandidates(buildIndex(articles, null), "shop", "my parcel hasn't come yet");
    expect(withVectors.map((c) => c.title).slice(0, 2)).toContain("Tracking your order");
    expect(wordsOnly[0]?.score ?? 0).toBeLessThan(withVectors[0]?.score ?? 0);
  });

  it("still works on words alone when the word vectors are missing", () => {
    const lexical = buildIndex(articles, null);
    expect(titleOf(lexical, "How do I return an item?")).toBe("How to return an item");
    expect(titleOf(lexical, "I forgot my password")).toBe("Resetting your password");
  });

  it("measures how much of a question the knowledge base has words for", () => {
    expect(queryTerms(index, "return an item").coverage).toBe(1);
    expect(queryTerms(index, "airspeed of an unladen swallow").coverage).toBeLessThan(0.3);
    // An unknown everyday word weighs less than an unknown rare one.
    const everyday = queryTerms(index, "return item does");
    const rare = queryTerms(index, "return item kayak");
    expect(everyday.coverage).toBeGreaterThan(rare.coverage);
  });

  it("answers with the lead and the passage that matches, never the whole article", () => {
    const [best] = findCandidates(index, "shop", "How long does a refund take to reach my card?");
    expect(best?.title).toBe("How to return an item");
    expect(best?.url).toBe("/help/shop/articles/return-an-item");
    expect(best?.passage).toContain("You can return unused items within 30 days");
    expect(best?.passage).toContain("Refund timing: Refunds reach your original payment method");
    expect(best?.passage).not.toContain("prepaid label");
  });

  it("reads a short follow-up with the previous question", () => {
    const alone = findCandidates(index, "shop", "and how long does it take?");
    const followUp = findCandidates(index, "shop", "and how long does it take?", [
      { role: "user", content: "Do you deliver to Canada?" },
      { role: "assistant", content: "We ship to the United States, Canada…" },
    ]);
    expect(followUp[0]?.title).toBe("International shipping");
    expect(followUp[0]?.confidence ?? 0).toBeGreaterThan(alone[0]?.confidence ?? 0);
  });

  it("does not read a new question as a follow-up of the previous one", () => {
    const conversation = [{ role: "user" as const, content: "Do you deliver to Canada?" }];
    const fresh = findCandidates(index, "shop", "Do you sell concert tickets?", conversation);
    expect(fresh[0]?.confidence ?? 0).toBeLessThan(0.5);
  });

  it("has no candidates in an empty knowledge base", () => {
    expect(findCandidates(buildIndex([], wordVectors()), "shop", "anything")).toEqual([]);
  });
});

describe("confidence", () => {
  it("interpolates between knots and stays flat beyond them", () => {
    const knots: [number, number][] = [
      [0, 0.1],
      [1, 0.5],
      [2, 0.9],
    ];
    expect(interpolate(-5, knots)).toBe(0.1);
    expect(interpolate(0.5, knots)).toBeCloseTo(0.3, 10);
    expect(interpolate(1.5, knots)).toBeCloseTo(0.7, 10);
    expect(interpolate(9, knots)).toBe(0.9);
  });

  it("is a probability that grows with the match, the lead over the runner-up and the coverage", () => {
    const base = { best: 0.5, top: 0.4, second: 0.3, coverage: 0.6, words: 4 };
    const p = confidenceOf(base);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    expect(confidenceOf({ ...base, best: 0.8 })).toBeGreaterThan(p);
    expect(confidenceOf({ ...base, second: 0.1 })).toBeGreaterThan(p);
    expect(confidenceOf({ ...base, coverage: 1 })).toBeGreaterThan(p);
    expect(confidenceOf({ best: 0, top: 0, second: 0, coverage: 0, words: 3 })).toBe(0);
    expect(confidenceOf({ best: 1, top: 1, second: 0, coverage: 1, words: 3 })).toBeLessThanOrEqual(0.99);
  });

  it("has monotone knots", () => {
    for (let i = 1; i < CALIBRATION.knots.length; i++) {
      const [x0, y0] = CALIBRATION.knots[i - 1] as [number, number];
      const [x1, y1] = CALIBRATION.knots[i] as [number, number];
      expect(x1).toBeGreaterThan(x0);
      expect(y1).toBeGreaterThanOrEqual(y0);
    }
  });

  it("puts good matches above the default hand-off threshold and unrelated questions below it", () => {
    const index = buildIndex(articles, wordVectors());
    const top = (q: string) => findCandidates(index, "shop", q)[0]?.confidence ?? 0;
    for (const q of ["Where is my order?", "I forgot my password", "Do you deliver to Canada?"]) {
      expect(top(q), q).toBeGreaterThan(0.8);
    }
    for (const q of ["What is the capital of France?", "Tell me a joke", "How tall is Mount Everest?"]) {
      expect(top(q), q).toBeLessThan(0.5);
    }
  });
});

describe("index cache", () => {
  afterEach(() => limitIndexCache(INDEX_CACHE_LIMITS));

  it("reuses an organization's index until its articles change, and keeps at most the configured organizations", async () => {
    limitIndexCache({ organizations: 3, units: INDEX_CACHE_LIMITS.units });
    let loads = 0;
    const load = async () => {
      loads++;
      return articles.slice(0, 2);
    };
    const first = await organizationIndex("org-a", "1|t1", load);
    expect(await organizationIndex("org-a", "1|t1", load)).toBe(first);
    expect(loads).toBe(1);
    const changed = await organizationIndex("org-a", "2|t2", load);
    expect(changed).not.toBe(first);
    expect(loads).toBe(2);

    for (const org of ["org-b", "org-c"]) await organizationIndex(org, "s", load);
    // Asked again, org-a is the most recently used: org-b goes first when org-d arrives.
    expect(await organizationIndex("org-a", "2|t2", load)).toBe(changed);
    await organizationIndex("org-d", "s", load);
    expect(indexCacheSize().organizations).toBe(3);
    const before = loads;
    await organizationIndex("org-a", "2|t2", load);
    expect(loads).toBe(before);
    await organizationIndex("org-b", "s", load);
    expect(loads).toBe(before + 1);
  });

  it("keeps at most the configured units, and an index larger than them alone", async () => {
    const two = articles.slice(0, 2);
    const units = (await organizationIndex("org-u1", "s", async () => two)).units.length;
    limitIndexCache({ organizations: 10, units: units * 2 });
    for (const org of ["org-u1", "org-u2", "org-u3"]) await organizationIndex(org, "s", async () => two);
    expect(indexCacheSize()).toEqual({ organizations: 2, units: units * 2 });
    await organizationIndex("org-big", "s", async () => articles);
    expect(indexCacheSize()).toEqual({ organizations: 1, units: units * 2 });
    let loads = 0;
    await organizationIndex("org-big", "s", async () => {
      loads++;
      return articles;
    });
    expect(loads).toBe(0);
  });
});

describe("word vectors", () => {
  it("read the head of the package's file as unit vectors, in frequency order", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cove-wv-"));
    try {
      const file = path.join(dir, "vectors.json");
      writeFileSync(
        file,
        JSON.stringify({
          precision: 8,
          dimensions: 2,
          words: ["the", 'ca"t', "dog"],
          vectors: { the: [3, 4, 5, 0], 'ca"t': [0, 2, 2, 1], dog: [1, 0, 1, 2] },
        }),
      );
      const wv = parsePackageHead(file, 2);
      expect([...wv.rows.keys()]).toEqual(["the", 'ca"t']);
      expect(Array.from(wv.vectors)).toEqual([0.6, 0.8, 0, 1].map(Math.fround));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("place related words closer than unrelated ones", () => {
    const wv = wordVectors();
    expect(wv).not.toBeNull();
    if (!wv) return;
    const vec = (w: string) => {
      const row = wv.rows.get(w) ?? -1;
      return wv.vectors.subarray(row * wv.dimensions, (row + 1) * wv.dimensions);
    };
    const cos = (a: string, b: string) => vec(a).reduce((s, x, i) => s + x * (vec(b)[i] ?? 0), 0);
    expect(cos("refund", "reimbursement")).toBeGreaterThan(cos("refund", "mountain"));
    expect(cos("password", "login")).toBeGreaterThan(cos("password", "banana"));
  });
});
