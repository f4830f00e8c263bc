/**
 * Issue 35, item 6: what stops CLINC150's top-1 (3 example questions) from rising after the simulated month, measured
 * in process on the retrieval code alone (no database, no chat): `node --import tsx bench/ai-month-top1.ts`.
 *
 * For each of CLINC150's 10 domains, the articles of bench/ai-month.ts (3 example questions) are given:
 *   none       nothing more (step 0);
 *   handoffs   the month's questions (each intent's 4th to 9th train questions) the assistant hands off at 0.5, read
 *              on the step-0 index, each attached to its right article (the worst case's learning, in one pass rather
 *              than in the month's order); "+wrong" also the ones it answers with a wrong article (the best case);
 *   month      all 6 of the month's questions, through learning.ts's rules (near-duplicates skipped, at most
 *              KB_QUESTIONS_MAX) as if each had been answered by a person;
 *   month unfiltered  the same 6, every one attached (no near-duplicate rule);
 *   more       14 more (the 4th to 17th train questions), the issue's "+12 points" reference, the same rules.
 * and measured on val (to choose) and test (to report), with the retrieval's article scoring as it is and with the
 * variants BENCH_VARIANTS names (RETRIEVAL overrides): how an article's score combines its best unit (max), the mean of
 * its next best units (support) and the whole-article unit (the centroid of its texts' sentence vectors, all its words).
 */
import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { findCandidates } from "../apps/api/src/modules/ai/candidates.ts";
import { nearDuplicate } from "../apps/api/src/modules/ai/learning.ts";
import { buildIndex, type KbArticle, RETRIEVAL, type SearchIndex } from "../apps/api/src/modules/ai/retrieval.ts";
import { activeEncoder, encodeTexts } from "../apps/api/src/modules/ai/sentence-encoder.ts";
import { attachSentenceVectors } from "../apps/api/src/modules/ai/sentences.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { lexicon } from "../apps/api/src/modules/ai/wordnet.ts";
import { domainArticles, domainQuestions, loadClinc } from "./ai-clinc.ts";

type Overrides = Partial<typeof RETRIEVAL>;

const VARIANTS: Record<string, Overrides> = {
  current: {},
  "max only (support 0)": { supportWeight: 0 },
  "support 0.25": { supportWeight: 0.25 },
  "support 0.75": { supportWeight: 0.75 },
  "support of 3": { supportUnits: 3 },
  "support of 10": { supportUnits: 10 },
  "no whole-article unit": { articleFactor: 0 },
  "whole-article x1.0": { articleFactor: 1.0 },
  "whole-article x1.5": { articleFactor: 1.5 },
  "whole-article x2.0": { articleFactor: 2.0 },
};

const chosen = (process.env.BENCH_VARIANTS || Object.keys(VARIANTS).join(",")).split(",").map((v) => v.trim());
const conditions = (process.env.BENCH_CONDITIONS || "none,handoffs,handoffs+wrong,month,month unfiltered,more").split(
  ",",
);
const THRESHOLD = 0.5;

function withOverrides<T>(overrides: Overrides, f: () => T): T {
  const saved = { ...RETRIEVAL };
  Object.assign(RETRIEVAL, overrides);
  try {
    return f();
  } finally {
    Object.assign(RETRIEVAL, saved);
  }
}

/** learning.ts's rules: in order, a near-duplicate of the title or of a question skipped, none past the limit. */
function learn(article: KbArticle, questions: string[]): { merged: string[]; duplicate: number; full: number } {
  const merged = [...article.questions];
  let duplicate = 0;
  let full = 0;
  for (const q of questions) {
    if (nearDuplicate(article.title, q) || merged.some((m) => nearDuplicate(m, q))) duplicate++;
    else if (merged.length >= KB_QUESTIONS_MAX) full++;
    else merged.push(q);
  }
  return { merged, duplicate, full };
}

async function main() {
  const encoder = activeEncoder();
  if (!encoder) throw new Error("needs the sentence encoder");
  const clinc = loadClinc();
  const vectors = wordVectors();
  lexicon();
  const started = performance.now();
  const domains = Object.keys(clinc.domains).slice(0, Number(process.env.BENCH_DOMAINS) || undefined);
  // figures[condition][variant][split] = [right, total]
  const figures = new Map<string, Map<string, Record<"val" | "test", [number, number]>>>();
  const learned = new Map<string, { added: number; duplicate: number; full: number }>();
  const rows = new Map<string, Float32Array>();
  let D = 0;
  const encode = async (texts: string[]) => {
    const missing = [...new Set(texts.filter((t) => t && !rows.has(t)))];
    if (missing.length === 0) return;
    const got = await encodeTexts(missing, "index", {}, encoder);
    if (!got) throw new Error("the encoder did not answer");
    D = got.dimensions;
    missing.forEach((t, k) => {
      rows.set(t, got.rows.slice(k * D, (k + 1) * D));
    });
  };
  const indexOf = (articles: KbArticle[]): SearchIndex => {
    const index = buildIndex(articles, vectors);
    const all = new Float32Array(index.units.length * D);
    index.texts.forEach((text, id) => {
      const row = text ? rows.get(text) : undefined;
      if (row) all.set(row, id * D);
    });
    attachSentenceVectors(index, all, { name: encoder, dimensions: D });
    return index;
  };
  const top = (index: SearchIndex, q: string) =>
    findCandidates(index, "bench", q, [], new Map([[q, rows.get(q) ?? null]]))[0];

  for (const domain of domains) {
    const base = domainArticles(clinc, domain, 3).map((a) => ({ ...a, id: a.intent }));
    const trainOf = (intent: string, from: number, to: number) =>
      clinc.splits.train
        .filter(([, i]) => i === intent)
        .slice(from, to)
        .map(([q]) => q);
    const val = domainQuestions(clinc, domain, "val");
    const test = domainQuestions(clinc, domain, "test");
    await encode([
      ...base.flatMap((a) => [a.title, ...trainOf(a.intent, 0, 17)]),
      ...val.map(([q]) => q),
      ...test.map(([q]) => q),
    ]);
    // Body sentences: what buildIndex reads of them.
    await encode(indexOf(base).texts);
    const step0 = indexOf(base);
    const monthOf = new Map(base.map((a) => [a.intent, trainOf(a.intent, 3, 9)]));
    const attached = new Map<string, Map<string, string[]>>();
    const handedOff = new Map<string, string[]>();
    const wrong = new Map<string, string[]>();
    for (const a of base)
      for (const q of monthOf.get(a.intent) ?? []) {
        const hit = top(step0, q);
        if (!hit || hit.confidence < THRESHOLD) handedOff.set(a.intent, [...(handedOff.get(a.intent) ?? []), q]);
        else if (hit.id !== a.intent) wrong.set(a.intent, [...(wrong.get(a.intent) ?? []), q]);
      }
    attached.set("none", new Map());
    attached.set("handoffs", handedOff);
    attached.set(
      "handoffs+wrong",
      new Map(base.map((a) => [a.intent, [...(handedOff.get(a.intent) ?? []), ...(wrong.get(a.intent) ?? [])]])),
    );
    attached.set("month", monthOf);
    attached.set("month unfiltered", monthOf);
    attached.set("more", new Map(base.map((a) => [a.intent, trainOf(a.intent, 3, 17)])));
    for (const condition of conditions) {
      const extra = attached.get(condition) ?? new Map<string, string[]>();
      const tally = learned.get(condition) ?? { added: 0, duplicate: 0, full: 0 };
      const articles = base.map((a) => {
        const offered = extra.get(a.intent) ?? [];
        const { merged, duplicate, full } =
          condition === "month unfiltered"
            ? { merged: [...a.questions, ...offered], duplicate: 0, full: 0 }
            : learn(a, offered);
        tally.added += merged.length - a.questions.length;
        tally.duplicate += duplicate;
        tally.full += full;
        return { ...a, questions: merged };
      });
      learned.set(condition, tally);
      for (const variant of chosen) {
        const overrides = VARIANTS[variant];
        if (!overrides) throw new Error(`unknown variant ${variant}`);
        withOverrides(overrides, () => {
          const index = indexOf(articles);
          const byVariant = figures.get(condition) ?? new Map();
          figures.set(condition, byVariant);
          const cell = byVariant.get(variant) ?? { val: [0, 0], test: [0, 0] };
          byVariant.set(variant, cell);
          for (const [split, questions] of [
            ["val", val],
            ["test", test],
          ] as const) {
            for (const [q, intent] of questions) {
              if (top(index, q)?.id === intent) cell[split][0]++;
              cell[split][1]++;
            }
          }
        });
      }
    }
    console.error(`${domain} done at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const pct = ([r, n]: [number, number]) => `${((100 * r) / n).toFixed(1)}%`;
  console.log(`CLINC150, ${domains.length} domains, 3 example questions; top-1 val / test`);
  for (const condition of conditions) {
    const t = learned.get(condition);
    console.log(
      `\n${condition}: ${t?.added} questions added over ${domains.length * 15} articles (${((t?.added ?? 0) / (domains.length * 15)).toFixed(2)} each), ${t?.duplicate} skipped as near-duplicates, ${t?.full} refused at the limit`,
    );
    for (const [variant, cell] of figures.get(condition) ?? [])
      console.log(`  ${variant.padEnd(24)} ${pct(cell.val)} / ${pct(cell.test)}`);
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

await main();
