/**
 * Fits the assistant's confidence calibration (apps/api/src/modules/ai/confidence.ts) on CLINC150's val split only:
 * a logistic regression of "the best article is the right one" on the retrieval signals, then isotonic regression
 * (pool adjacent violators) of the outcome on the logistic score, summarised as a few knots. Knowledge bases with 3,
 * 10 and all train phrasings per article, and with none, are pooled, so the confidence means the same for a sparse knowledge base as
 * for a rich one. Prints the constants; changes nothing.
 */
import {
  type Calibration,
  type ConfidenceSignals,
  confidenceOf,
  linearScore,
  signalsOf,
} from "../apps/api/src/modules/ai/confidence.ts";
import { buildIndex, queryTerms, search, unitScores } from "../apps/api/src/modules/ai/retrieval.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { type Clinc, domainArticles, domainQuestions } from "./ai-clinc.ts";
import { prepareIndex, questionVectors } from "./ai-sentences.ts";

export const CALIBRATION_PHRASINGS = [Number.POSITIVE_INFINITY, 10, 3, 0];

interface Row {
  signals: ConfidenceSignals;
  correct: boolean;
  inScope: boolean;
}

/**
 * Retrieval signals of every val question (in-scope of its domain, and every out-of-scope one) in every domain, with
 * the sentence encoder (`sentences`) or without it.
 */
export async function validationRows(
  clinc: Clinc,
  sentences: boolean,
  phrasings: number[] = CALIBRATION_PHRASINGS,
): Promise<Row[]> {
  const rows: Row[] = [];
  const vectors = wordVectors();
  for (const count of phrasings) {
    for (const domain of Object.keys(clinc.domains)) {
      const articles = domainArticles(clinc, domain, count);
      const built = buildIndex(
        articles.map((a) => ({ id: a.intent, title: a.title, slug: a.slug, body: a.body, questions: a.questions })),
        vectors,
      );
      const index = sentences ? await prepareIndex(built) : built;
      const questions: [string, string][] = [...domainQuestions(clinc, domain, "val"), ...clinc.splits.oos_val];
      const encoded = sentences ? await questionVectors(questions.map(([text]) => text)) : [];
      for (const [k, [text, intent]] of questions.entries()) {
        const query = queryTerms(index, text, undefined, encoded[k] ?? null);
        const [top] = search(index, unitScores(index, query), 1);
        const signals = signalsOf(query, top);
        const correct = top !== undefined && index.articles[top.article]?.id === intent;
        rows.push({ signals, correct, inScope: intent !== "oos" });
      }
    }
  }
  return rows;
}

function sigmoid(z: number) {
  return 1 / (1 + Math.exp(-z));
}

/** Newton's method on the L2-regularised log-loss; 4 parameters, so the 4x4 system is solved directly. */
function fitLogistic(x: number[][], y: number[], l2 = 1e-3): number[] {
  const d = (x[0]?.length ?? 0) + 1;
  let w = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    x.forEach((row, i) => {
      const xi = [...row, 1];
      const p = sigmoid(xi.reduce((s, v, k) => s + v * (w[k] ?? 0), 0));
      for (let a = 0; a < d; a++) {
        g[a] = (g[a] ?? 0) + (p - (y[i] ?? 0)) * (xi[a] ?? 0);
        for (let b = 0; b < d; b++)
          (h[a] as number[])[b] = (h[a]?.[b] ?? 0) + p * (1 - p) * (xi[a] ?? 0) * (xi[b] ?? 0);
      }
    });
    for (let a = 0; a < d; a++) {
      g[a] = (g[a] ?? 0) / x.length + (a < d - 1 ? l2 * (w[a] ?? 0) : 0);
      for (let b = 0; b < d; b++) (h[a] as number[])[b] = (h[a]?.[b] ?? 0) / x.length + (a === b ? l2 : 0);
    }
    const step = solve(h, g);
    w = w.map((v, k) => v - (step[k] ?? 0));
    if (Math.max(...g.map(Math.abs)) < 1e-10) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]?.[c] ?? 0) > Math.abs(m[pivot]?.[c] ?? 0)) pivot = r;
    [m[c], m[pivot]] = [m[pivot] as number[], m[c] as number[]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = (m[r]?.[c] ?? 0) / (m[c]?.[c] ?? 1);
      for (let k = c; k <= n; k++) (m[r] as number[])[k] = (m[r]?.[k] ?? 0) - f * (m[c]?.[k] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** Pool adjacent violators: the non-decreasing fit of y on sorted z, as (mean z, mean y) blocks. */
function isotonic(points: { z: number; y: number }[]): [number, number][] {
  const sorted = [...points].sort((a, b) => a.z - b.z);
  const blocks: { sumY: number; sumZ: number; n: number }[] = [];
  for (const p of sorted) {
    blocks.push({ sumY: p.y, sumZ: p.z, n: 1 });
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1] as (typeof blocks)[number];
      const prev = blocks[blocks.length - 2] as (typeof blocks)[number];
      if (prev.sumY / prev.n <= last.sumY / last.n) break;
      blocks.splice(blocks.length - 2, 2, {
        sumY: prev.sumY + last.sumY,
        sumZ: prev.sumZ + last.sumZ,
        n: prev.n + last.n,
      });
    }
  }
  return blocks.map((b) => [b.sumZ / b.n, b.sumY / b.n]);
}

function interpolate(x: number, knots: [number, number][]): number {
  const first = knots[0] as [number, number];
  const last = knots[knots.length - 1] as [number, number];
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i] as [number, number];
    const [x0, y0] = knots[i - 1] as [number, number];
    if (x <= x1) return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
  }
  return last[1];
}

const features = (s: ConfidenceSignals) => [s.best, s.top - s.second, s.coverage];
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export function fitCalibration(rows: Row[]): Calibration {
  const w = fitLogistic(
    rows.map((r) => features(r.signals)),
    rows.map((r) => (r.correct ? 1 : 0)),
  );
  const weights = { best: round(w[0] ?? 0, 3), margin: round(w[1] ?? 0, 3), coverage: round(w[2] ?? 0, 3) };
  const bias = round(w[3] ?? 0, 3);
  const draft: Calibration = { weights, bias, knots: [], shortCaps: [1, 1] };
  const z = rows.map((r) => linearScore(r.signals, draft));
  const steps = isotonic(rows.map((r, i) => ({ z: z[i] ?? 0, y: r.correct ? 1 : 0 })));
  // A dozen knots at quantiles of the score keep the table small; probabilities stay inside [0.01, 0.99].
  const sorted = [...z].sort((a, b) => a - b);
  const quantiles = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 1];
  let floor = 0;
  const knots: [number, number][] = [];
  for (const q of quantiles) {
    const at = sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] ?? 0;
    floor = Math.max(floor, Math.min(0.99, Math.max(0.01, interpolate(at, steps))));
    const knot: [number, number] = [round(at, 2), round(floor, 3)];
    if (knots.length === 0 || (knots[knots.length - 1] as [number, number])[0] < knot[0]) knots.push(knot);
  }
  // Short questions: how often those the knots put at 0.9 or more were right; that is as sure as they can be.
  const uncapped: Calibration = { weights, bias, knots, shortCaps: [1, 1] };
  const capOf = (short: (words: number) => boolean) => {
    const sure = rows.filter((r) => short(r.signals.words) && confidenceOf(r.signals, uncapped) >= 0.9);
    return sure.length === 0 ? 1 : round(sure.filter((r) => r.correct).length / sure.length, 2);
  };
  return { weights, bias, knots, shortCaps: [capOf((n) => n <= 1), capOf((n) => n === 2)] };
}

/** Predicted against observed correctness in bands of confidence. */
export function reliability(rows: { p: number; correct: boolean }[]): string[] {
  const lines: string[] = [];
  for (let band = 0; band < 10; band++) {
    // Whole tenths, so floating-point steps never make an eleventh band; a confidence of 1 is in the last one.
    const inBand = rows.filter((r) => Math.min(9, Math.floor(r.p * 10 + 1e-9)) === band);
    if (inBand.length === 0) continue;
    const predicted = inBand.reduce((s, r) => s + r.p, 0) / inBand.length;
    const observed = inBand.filter((r) => r.correct).length / inBand.length;
    lines.push(
      `  ${(band / 10).toFixed(1)}-${((band + 1) / 10).toFixed(1)}  n=${String(inBand.length).padStart(5)}  predicted ${predicted.toFixed(2)}  observed ${observed.toFixed(2)}`,
    );
  }
  return lines;
}
