/**
 * Issue 35, item 3: "Is this really covered?" measured before anything goes into the product. A second signal beside
 * similarity would lower the confidence of an answer whose best article does not contain what the question asks for.
 * Three candidate signals, each computed on the best article only, each halving the confidence when it fires:
 *
 *   fact     the question asks for a kind of fact (asked-fact.ts: a price, a time, an age, a place, a number) and no
 *            sentence of the best article states one;
 *   unknown  a content word of the question (its stem) is in no article of the knowledge base at all;
 *   missing  more than half of the question's content words are missing from the best article.
 *
 * Validation questions only: CLINC150 val (3 example questions per article, the 10 domains, their in-scope val
 * questions and the 100 out-of-scope val questions) and the small shop's month questions (bench/ai-shop.ts: the six
 * train questions per article and the 20 train uncovered questions; its test questions are not read). For each, the
 * hand-off rates with and without the signal at the default threshold (0.5) and at each knowledge base's threshold
 * chosen on the same questions without the signal. A signal is worth keeping only if it raises the uncovered
 * questions' hand-off by more than it raises the answerable ones'. `node --import tsx bench/ai-covered.ts`.
 */
import { askedFact, statesFact } from "../apps/api/src/modules/ai/asked-fact.ts";
import { confidenceOf, signalsOf } from "../apps/api/src/modules/ai/confidence.ts";
import { buildIndex, queryTerms, search, unitScores } from "../apps/api/src/modules/ai/retrieval.ts";
import { keyTerms } from "../apps/api/src/modules/ai/unanswered.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { domainArticles, domainQuestions, loadClinc } from "./ai-clinc.ts";
import { prepareIndex, questionVectors } from "./ai-sentences.ts";
import { SHOP, SHOP_TRAIN_PER_ARTICLE, SHOP_UNCOVERED, SHOP_UNCOVERED_TRAIN } from "./ai-shop.ts";

interface Article {
  id: string;
  title: string;
  slug: string;
  body: string;
  questions: string[];
}

const SIGNALS = ["fact", "unknown", "missing"] as const;
type Signal = (typeof SIGNALS)[number];

interface Row {
  covered: boolean;
  confidence: number;
  fires: Record<Signal, boolean>;
}

function termsOf(a: Article): Set<string> {
  return keyTerms([a.title, a.body, ...a.questions].join(" \n "));
}

async function rowsFor(articles: Article[], questions: [string, string | null][]): Promise<Row[]> {
  const index = await prepareIndex(buildIndex(articles, wordVectors()));
  const terms = new Map(articles.map((a) => [a.id, termsOf(a)]));
  const known = new Set(articles.flatMap((a) => [...(terms.get(a.id) ?? [])]));
  const vectors = await questionVectors(questions.map(([q]) => q));
  return questions.map(([text, id], k) => {
    const query = queryTerms(index, text, undefined, vectors[k] ?? null);
    const [top] = search(index, unitScores(index, query), 1);
    const confidence = top ? confidenceOf(signalsOf(query, top)) : 0;
    const best = articles.find((a) => a.id === index.articles[top?.article ?? -1]?.id);
    const asked = [...keyTerms(text)];
    const bestTerms = best ? (terms.get(best.id) ?? new Set<string>()) : new Set<string>();
    const kind = askedFact(text);
    const sentences = best ? `${best.title}\n${best.body}`.split(/(?<=[.!?])\s+|\n+/) : [];
    return {
      covered: id !== null,
      confidence,
      fires: {
        fact: kind !== null && !sentences.some((s) => statesFact(kind, s)),
        unknown: asked.some((t) => !known.has(t)),
        missing: asked.length > 0 && asked.filter((t) => !bestTerms.has(t)).length > asked.length / 2,
      },
    };
  });
}

/** The threshold maximising half the answerable questions kept plus half the uncovered ones handed off. */
function chosen(rows: Row[]): number {
  let best = { t: 0.5, objective: -1 };
  const covered = rows.filter((r) => r.covered);
  const uncovered = rows.filter((r) => !r.covered);
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const objective =
      (0.5 * covered.filter((r) => r.confidence >= t).length) / covered.length +
      (0.5 * uncovered.filter((r) => r.confidence < t).length) / uncovered.length;
    if (objective > best.objective + 1e-12) best = { t, objective };
  }
  return best.t;
}

const confidenceWith = (r: Row, signal: Signal | null) => (signal && r.fires[signal] ? r.confidence / 2 : r.confidence);

function rates(groups: { rows: Row[]; threshold: number }[], signal: Signal | null) {
  let falseHandoff = 0;
  let covered = 0;
  let handedOff = 0;
  let uncovered = 0;
  let fired = [0, 0];
  for (const { rows, threshold } of groups) {
    for (const r of rows) {
      const off = confidenceWith(r, signal) < threshold;
      if (r.covered) {
        covered++;
        if (off) falseHandoff++;
      } else {
        uncovered++;
        if (off) handedOff++;
      }
    }
    if (signal) {
      fired = [
        (fired[0] ?? 0) + rows.filter((r) => r.covered && r.fires[signal]).length,
        (fired[1] ?? 0) + rows.filter((r) => !r.covered && r.fires[signal]).length,
      ];
    }
  }
  return {
    falseHandoff: falseHandoff / covered,
    uncovered: handedOff / uncovered,
    fired,
    covered,
    uncoveredN: uncovered,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;

function report(name: string, sets: Row[][]): void {
  for (const mode of ["default 0.5", "chosen on val"] as const) {
    const groups = sets.map((rows) => ({ rows, threshold: mode === "default 0.5" ? 0.5 : chosen(rows) }));
    const base = rates(groups, null);
    console.log(
      `${name}, threshold ${mode}: without a second signal false hand-off ${pct(base.falseHandoff)} of ${base.covered}, uncovered hand-off ${pct(base.uncovered)} of ${base.uncoveredN}`,
    );
    for (const signal of SIGNALS) {
      const r = rates(groups, signal);
      const gain = r.uncovered - base.uncovered;
      const cost = r.falseHandoff - base.falseHandoff;
      console.log(
        `  ${signal.padEnd(8)} fires on ${r.fired[0]} answerable, ${r.fired[1]} uncovered; false hand-off ${pct(r.falseHandoff)} (${pts(cost)}), uncovered hand-off ${pct(r.uncovered)} (${pts(gain)}): ${gain > cost ? "gains more than it costs" : "costs at least what it gains"}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const clinc = loadClinc();
  const sets: Row[][] = [];
  for (const domain of Object.keys(clinc.domains)) {
    const articles = domainArticles(clinc, domain, 3).map((a) => ({ ...a, id: a.intent }));
    const questions: [string, string | null][] = [
      ...domainQuestions(clinc, domain, "val"),
      ...clinc.splits.oos_val.map(([q]): [string, null] => [q, null]),
    ];
    sets.push(await rowsFor(articles, questions));
  }
  report("CLINC150 val, 3 example questions", sets);
  const shopArticles = SHOP.map((a) => ({ id: a.slug, title: a.title, slug: a.slug, body: a.body, questions: [] }));
  const shopQuestions: [string, string | null][] = [
    ...SHOP.flatMap((a) => a.questions.slice(0, SHOP_TRAIN_PER_ARTICLE).map((q): [string, string] => [q, a.slug])),
    ...SHOP_UNCOVERED.slice(0, SHOP_UNCOVERED_TRAIN).map((q): [string, null] => [q, null]),
  ];
  report("small shop, its month's questions (no example questions)", [await rowsFor(shopArticles, shopQuestions)]);
}

await main();
