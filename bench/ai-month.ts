/**
 * `npm run bench:ai`'s simulated month (issue 35, item 6): a knowledge base with few or no example questions, then a
 * month of customers asking in the chat widget and the team answering the hand-offs, through the real app (in process,
 * app.inject, an embedded database) and the real learning path:
 *
 *   step 0  the knowledge base as written, the default hand-off threshold;
 *   step 1  after the month: every train question is asked by a visitor in a live chat; a handed-off covered one is
 *           answered by an agent with a link to its article (suggestions.ts makes it a candidate and, with "accept
 *           automatically" on, learning.ts adds it to the article); a handed-off uncovered one is marked "not covered"
 *           (POST /api/ai/unanswered/not-covered). Test questions are never asked in a chat, never labelled, never
 *           attached;
 *   step 2  the threshold threshold.ts proposes from that month's labels for a 10% false hand-off target, applied
 *           through POST /api/ai/threshold/apply.
 *
 * Two months per knowledge base, because what the threshold can learn depends on what visitors do:
 *   worst  visitors never rate an answer: the only labels are the hand-offs the team answered or marked, so every
 *          answerable label is a question the assistant was unsure of;
 *   best   every visitor rates: a right answer gets a thumbs up (an answerable label, and since 2026-11-30 a candidate
 *          example question of the answer's article, which "accept automatically" adds at once: suggestions.ts), a
 *          wrong one a thumbs down, after which an admin attaches a covered question to its right article from the
 *          unanswered list or marks an uncovered one "not covered";
 *   half   (only with BENCH_AI_MONTH_VISITORS=half) every second answered visitor rates, as in the best case: between
 *          the two, where real visitors sit.
 * Measured at each step on the test split with the staff console's endpoint (POST /api/chat/ai-response, channel
 * "console", which the threshold's history never reads): asked once with the threshold at 0 so every answer names
 * its best article and its confidence, and a question counts as handed off when its confidence is below the step's
 * threshold, the rule the embedded provider applies.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CHAT_HANDOFF_NOTICE, type ChatMessage } from "@cove/contract/chat.ts";
import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/api/src/app.ts";
import { kbArticles } from "../apps/api/src/db/schema/kb.ts";
import { DEFAULT_SETTINGS } from "../apps/api/src/modules/ai/ai.queries.ts";
import { handedOffAt, labelledHistory, targetThreshold } from "../apps/api/src/modules/ai/threshold.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { lexicon } from "../apps/api/src/modules/ai/wordnet.ts";
import { type Database, openDatabase } from "../apps/api/src/platform/db.ts";
import { type Clinc, domainArticles, domainQuestions } from "./ai-clinc.ts";
import { proposeWeighted, withImplicitLabels } from "./ai-implicit.ts";
import { leaveOneOut } from "./ai-loo.ts";
import { SHOP, SHOP_TRAIN_PER_ARTICLE, SHOP_UNCOVERED, SHOP_UNCOVERED_TRAIN } from "./ai-shop.ts";

export interface MonthKb {
  name: string;
  articles: { key: string; title: string; slug: string; body: string; questions: string[] }[];
  /** [question, article key]; the month's. */
  train: [string, string][];
  test: [string, string][];
  uncoveredTrain: string[];
  uncoveredTest: string[];
}

export type Visitors = "worst" | "best" | "half";

/** The months to run per knowledge base (BENCH_AI_MONTH_VISITORS, a list; default worst,best). */
const VISITORS = (process.env.BENCH_AI_MONTH_VISITORS || "worst,best")
  .split(",")
  .map((v) => v.trim())
  .filter((v): v is Visitors => v === "worst" || v === "best" || v === "half");

interface Org {
  token: string;
  id: string;
  slug: string;
  ids: Map<string, string>;
}

interface Measured {
  key: string | null;
  confidence: number;
  source: string | null;
}

export interface StepFigures {
  threshold: number;
  top1: number;
  falseHandoff: number;
  uncoveredHandoff: number;
  inScope: number;
  uncovered: number;
}

export interface MonthResult {
  /** Step 0, 1, 2: the test answers and the threshold they are read at. */
  steps: [Step, Step, Step];
  /** What happened in the month. */
  month: {
    asked: number;
    answeredRight: number;
    answeredWrong: number;
    handedOff: number;
    learned: number;
    /** Example questions the articles gained in the month (answers with an article, and, with ratings, attachments). */
    added: number;
    notCovered: number;
    uncoveredAnswered: number;
  };
  labelled: { answerable: number; uncovered: number };
  proposalMessage: string;
  /** With BENCH_AI_MONTH_LOO=1: step 2 with the threshold fitted on leave-one-out confidences (bench/ai-loo.ts). */
  leaveOneOut?: { step: Step; leftOut: number; ms: number; checkDrift: number; message: string };
  /** With BENCH_AI_MONTH_IMPLICIT=1: step 2 with implicit answerable labels added, at each weight (bench/ai-implicit.ts). */
  implicit?: { weight: number; step: Step; message: string }[];
}

/** The weights an implicit label is given beside an explicit one (BENCH_AI_MONTH_IMPLICIT=1). */
const IMPLICIT_WEIGHTS = [1, 0.5];

/** The leave-one-out fit reads this many newest labels (an index is built for each one learned as an example). */
const LOO_NEWEST = Number(process.env.BENCH_AI_MONTH_LOO_NEWEST) || 500;

let address = 0;
const run = Date.now().toString(16).slice(-4);
/** A fresh visitor address each time: the rate limits group IPv6 addresses by /64, so the counter is in the prefix. */
const nextAddress = () => `2001:db8:${run}:${(address++).toString(16)}::1`;

function caller(app: FastifyInstance) {
  return async (
    token: string | null,
    method: "GET" | "POST" | "PUT",
    url: string,
    payload?: unknown,
    ip?: string,
    allow400 = false,
  ) => {
    const res = await app.inject({
      method,
      url,
      payload: payload as object | undefined,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: ip ?? nextAddress(),
    });
    if (res.statusCode >= 300 && !(allow400 && res.statusCode === 400))
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { status: res.statusCode, body: res.json() as Record<string, unknown> & { message?: string } };
  };
}

type Call = ReturnType<typeof caller>;

async function createOrg(app: FastifyInstance, database: Database, kb: MonthKb, label: string): Promise<Org> {
  const call = caller(app);
  const { body } = await call(null, "POST", "/api/auth/register", {
    organizationName: `${kb.name} (${label})`,
    firstName: "Bench",
    lastName: "Admin",
    email: `month-${randomUUID().slice(0, 8)}@bench.cove.test`,
    password: "benchmark-password",
  });
  const { token, user } = body as unknown as {
    token: string;
    user: { organizationId: string; organizationSlug: string };
  };
  const rows = await database.db
    .insert(kbArticles)
    .values(
      kb.articles.map((a) => ({
        organizationId: user.organizationId,
        title: a.title,
        slug: a.slug,
        body: a.body,
        questions: a.questions,
        status: "published" as const,
        publishedAt: new Date(),
      })),
    )
    .returning({ id: kbArticles.id, slug: kbArticles.slug });
  const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
  const ids = new Map(kb.articles.map((a) => [a.key, bySlug.get(a.slug) ?? ""]));
  await call(token, "PUT", "/api/ai/settings", { learn_automatically: true });
  return { token, id: user.organizationId, slug: user.organizationSlug, ids };
}

/** The test split asked of the console at threshold 0: each answer's best article and confidence. */
async function measure(call: Call, org: Org, kb: MonthKb): Promise<Measured[]> {
  const { body } = await call(org.token, "GET", "/api/ai/settings");
  const saved = (body as { settings: { handoff_threshold: number } }).settings.handoff_threshold;
  await call(org.token, "PUT", "/api/ai/settings", { handoff_threshold: 0 });
  const byId = new Map([...org.ids].map(([key, id]) => [id, key]));
  const rows: Measured[] = [];
  const questions: [string, string | null][] = [...kb.test, ...kb.uncoveredTest.map((q): [string, null] => [q, null])];
  for (const [question, key] of questions) {
    const answer = (await call(org.token, "POST", "/api/chat/ai-response", { message: question })).body as {
      confidence: number;
      sources: { id: string }[];
    };
    const first = answer.sources[0]?.id;
    rows.push({ key, confidence: answer.confidence, source: first ? (byId.get(first) ?? null) : null });
  }
  await call(org.token, "PUT", "/api/ai/settings", { handoff_threshold: saved });
  return rows;
}

interface Step {
  rows: Measured[];
  threshold: number;
}

/** One step's figures, pooled over organizations (each read at its own threshold). */
export function figuresOf(steps: Step[]): StepFigures {
  const rows = steps.flatMap((s) => s.rows.map((r) => ({ ...r, handedOff: r.confidence < s.threshold })));
  const inScope = rows.filter((r) => r.key !== null);
  const uncovered = rows.filter((r) => r.key === null);
  const thresholds = steps.map((s) => s.threshold);
  return {
    threshold: thresholds.reduce((a, b) => a + b, 0) / Math.max(thresholds.length, 1),
    top1: inScope.filter((r) => r.source === r.key).length / inScope.length,
    falseHandoff: inScope.filter((r) => r.handedOff).length / inScope.length,
    uncoveredHandoff: uncovered.filter((r) => r.handedOff).length / uncovered.length,
    inScope: inScope.length,
    uncovered: uncovered.length,
  };
}

/** A fixed shuffle (the month's order), so that every run asks in the same order. */
function shuffled<T>(items: T[], seed = 35): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface Turn {
  session: string;
  visitor: string;
  ip: string;
  answerId: string | null;
  source: string | null;
}

/** A visitor opens a chat and asks; the assistant answers (its answer's first source) or hands off (null). */
async function visitorAsks(call: Call, org: Org, question: string): Promise<Turn> {
  const ip = nextAddress();
  const base = `/api/public/${org.slug}/chat/sessions`;
  const started = (await call(null, "POST", base, { name: "Visitor" }, ip)).body as {
    token: string;
    session: { id: string };
  };
  const said = (await call(started.token, "POST", `${base}/${started.session.id}/messages`, { message: question }, ip))
    .body as { messages: ChatMessage[] };
  const handedOff = said.messages.some((m) => m.sender_type === "system" && m.message === CHAT_HANDOFF_NOTICE);
  // An answer (not a hand-off) is the assistant's message the visitor may rate.
  const answer = handedOff ? undefined : said.messages.find((m) => m.sender_type === "ai" && m.feedback !== undefined);
  const byId = new Map([...org.ids].map(([key, id]) => [id, key]));
  return {
    session: started.session.id,
    visitor: started.token,
    ip,
    answerId: answer?.id ?? null,
    source: answer ? (byId.get(answer.sources[0]?.id ?? "") ?? "other") : null,
  };
}

/** The month, then the three steps' figures. */
export async function simulateMonth(
  app: FastifyInstance,
  database: Database,
  kb: MonthKb,
  visitors: Visitors,
): Promise<MonthResult> {
  const call = caller(app);
  const org = await createOrg(app, database, kb, visitors);
  const before = await measure(call, org, kb);
  const month = {
    asked: 0,
    answeredRight: 0,
    answeredWrong: 0,
    handedOff: 0,
    learned: 0,
    added: 0,
    notCovered: 0,
    uncoveredAnswered: 0,
  };
  const notCovered: string[] = [];
  const wrong = new Map<string, string[]>();
  const conversations: [string, string | null][] = shuffled([
    ...kb.train,
    ...kb.uncoveredTrain.map((q): [string, null] => [q, null]),
  ]);
  for (const [question, key] of conversations) {
    month.asked++;
    const turn = await visitorAsks(call, org, question);
    if (turn.source === null) {
      month.handedOff++;
      if (key === null) notCovered.push(question);
      else {
        // A person answers the hand-off with a link to the article: the real learning path.
        await call(org.token, "POST", `/api/chat/sessions/${turn.session}/messages`, {
          message: `Hi! This should help: http://127.0.0.1/help/${org.slug}/articles/${kb.articles.find((a) => a.key === key)?.slug}`,
        });
        month.learned++;
      }
      continue;
    }
    const right = key !== null && turn.source === key;
    if (key === null) month.uncoveredAnswered++;
    else if (right) month.answeredRight++;
    else month.answeredWrong++;
    if (visitors === "worst" || !turn.answerId) continue;
    // Half the visitors rate: every second answered question of the month.
    const answered = month.answeredRight + month.answeredWrong + month.uncoveredAnswered;
    if (visitors === "half" && answered % 2 === 0) continue;
    await call(
      turn.visitor,
      "PUT",
      `/api/public/${org.slug}/chat/sessions/${turn.session}/messages/${turn.answerId}/feedback`,
      { helpful: right },
      turn.ip,
    );
    if (key === null) notCovered.push(question);
    else if (!right) wrong.set(key, [...(wrong.get(key) ?? []), question]);
  }
  for (let i = 0; i < notCovered.length; i += 20) {
    await call(org.token, "POST", "/api/ai/unanswered/not-covered", { questions: notCovered.slice(i, i + 20) });
  }
  month.notCovered = notCovered.length;
  for (const [key, questions] of wrong) {
    await call(org.token, "POST", "/api/ai/unanswered/attach", { article_id: org.ids.get(key), questions });
  }
  const rows = await database.db
    .select({ questions: kbArticles.questions })
    .from(kbArticles)
    .where(inArray(kbArticles.id, [...org.ids.values()]));
  month.added =
    rows.reduce((n, r) => n + r.questions.length, 0) - kb.articles.reduce((n, a) => n + a.questions.length, 0);
  const after = await measure(call, org, kb);
  if (process.env.BENCH_AI_MONTH_LABELS) {
    // The month's labels (train side only: test questions are never labelled), one JSON line an organization, for
    // studying the threshold rule away from the test answers.
    const labels = await labelledHistory(database.db, org.id);
    appendFileSync(
      process.env.BENCH_AI_MONTH_LABELS,
      `${JSON.stringify({ kb: kb.name, visitors, labels: labels.map(({ question: _, ...l }) => l) })}\n`,
    );
  }
  // Too little history is a 400 that says so: the default threshold stays.
  const applied = await call(org.token, "POST", "/api/ai/threshold/apply", { target: 0.1 }, undefined, true);
  const proposal = (await call(org.token, "GET", "/api/ai/threshold?target=0.1")).body as {
    current: number;
    labelled: { answerable: number; uncovered: number };
    message: string;
  };
  const defaultThreshold = DEFAULT_SETTINGS.handoffThreshold;
  let loo: MonthResult["leaveOneOut"];
  if (process.env.BENCH_AI_MONTH_LOO === "1") {
    // Scored in process on an index built from the articles as they are now; `check` compares its confidences of the
    // test questions with the app's own answers to them (the mean absolute difference: the two should read alike).
    const testQuestions = [...kb.test.map(([q]) => q), ...kb.uncoveredTest];
    const fit = await leaveOneOut(database, org.id, org.slug, LOO_NEWEST, testQuestions);
    // The target's rule alone, as measured on 2026-11-30 before the 85% floor (docs/benchmarks.md).
    const proposed = targetThreshold(fit.labels, 0.1);
    const drift = fit.check.reduce((s, c, k) => s + Math.abs(c - (after[k]?.confidence ?? 0)), 0) / fit.check.length;
    const at = proposed === null ? null : handedOffAt(fit.labels, proposed);
    // Where the answerable labels sit, logged and left out, beside the covered test questions after the month.
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
    const medians = `medians: answerable labels logged ${median(fit.labels.filter((l) => l.answerable).map((l) => l.logged)).toFixed(2)}, left out ${median(fit.labels.filter((l) => l.answerable).map((l) => l.confidence)).toFixed(2)}; covered test questions ${median(after.filter((r) => r.key !== null).map((r) => r.confidence)).toFixed(2)}`;
    loo = {
      step: { rows: after, threshold: proposed ?? defaultThreshold },
      leftOut: fit.leftOut,
      ms: fit.ms,
      checkDrift: drift,
      message:
        proposed === null || !at
          ? `leave-one-out: none proposed (${fit.labels.filter((l) => l.answerable).length} answerable labels)`
          : `leave-one-out: ${proposed.toFixed(2)} (${pct(at.answerable)} of ${fit.labels.filter((l) => l.answerable).length} answerable labels, ${at.uncovered === null ? "no" : pct(at.uncovered)} uncovered handed off; ${fit.leftOut} scored without their own example question; ${fit.ms.toFixed(0)} ms; test confidences drift ${drift.toFixed(3)} from the app's; ${medians})`,
    };
  }
  let implicit: MonthResult["implicit"];
  if (process.env.BENCH_AI_MONTH_IMPLICIT === "1") {
    // Read before anything else is asked of this organization; the test questions are the console's, never labels.
    const labels = await withImplicitLabels(database, org.id);
    const counted = labels.filter((l) => l.implicit).length;
    const answerableLabels = labels.filter((l) => l.answerable).length;
    implicit = IMPLICIT_WEIGHTS.map((weight) => {
      const proposed = proposeWeighted(labels, 0.1, weight);
      const at = proposed === null ? null : handedOffAt(labels, proposed);
      return {
        weight,
        step: { rows: after, threshold: proposed ?? defaultThreshold },
        message:
          proposed === null || !at
            ? `implicit labels at weight ${weight}: none proposed (${answerableLabels} answerable labels, ${counted} implicit)`
            : `implicit labels at weight ${weight}: ${proposed.toFixed(2)} (${answerableLabels} answerable labels of which ${counted} implicit; ${pct(at.answerable)} of them handed off unweighted, ${at.uncovered === null ? "no" : pct(at.uncovered)} uncovered handed off)`,
      };
    });
  }
  return {
    steps: [
      { rows: before, threshold: defaultThreshold },
      { rows: after, threshold: defaultThreshold },
      { rows: after, threshold: applied.status === 200 ? proposal.current : defaultThreshold },
    ],
    month,
    labelled: proposal.labelled,
    proposalMessage: applied.status === 200 ? proposal.message : `no threshold applied: ${String(applied.body.error)}`,
    ...(loo ? { leaveOneOut: loo } : {}),
    ...(implicit ? { implicit } : {}),
  };
}

const pct = (share: number) => `${(100 * share).toFixed(1)}%`;

/**
 * Whether any one threshold meets the goal on the test answers after the month: the one that hands off the most
 * uncovered questions while handing off at most 10% of covered ones. Read off the test split, so it is never applied:
 * it says whether the goal was within reach of a threshold at all.
 */
function bestOnTest(rows: Measured[]): string {
  let best = { t: 0, uncovered: 0, falseHandoff: 0 };
  for (let step = 0; step <= 100; step++) {
    const f = figuresOf([{ rows, threshold: step / 100 }]);
    if (f.falseHandoff <= 0.1 && f.uncoveredHandoff >= best.uncovered) {
      best = { t: step / 100, uncovered: f.uncoveredHandoff, falseHandoff: f.falseHandoff };
    }
  }
  return `on the test answers after the month, at most 10% false hand-off allows ${best.t.toFixed(2)} (one threshold for all): ${pct(best.falseHandoff)} false hand-off, ${pct(best.uncovered)} uncovered hand-off`;
}

/** The figures as the bench prints them. */
export function monthLines(name: string, visitors: Visitors, results: MonthResult[]): string[] {
  const [s0, s1, s2] = [0, 1, 2].map((k) => figuresOf(results.map((r) => r.steps[k] as Step))) as [
    StepFigures,
    StepFigures,
    StepFigures,
  ];
  const m = {
    asked: 0,
    answeredRight: 0,
    answeredWrong: 0,
    handedOff: 0,
    learned: 0,
    added: 0,
    notCovered: 0,
    uncoveredAnswered: 0,
  };
  for (const r of results) for (const k of Object.keys(m) as (keyof typeof m)[]) m[k] += r.month[k];
  const answerable = results.reduce((n, r) => n + r.labelled.answerable, 0);
  const uncoveredLabels = results.reduce((n, r) => n + r.labelled.uncovered, 0);
  const messages = results.map((r) => r.proposalMessage);
  const row = (name: string, s: StepFigures) =>
    `  ${name.padEnd(44)} threshold ${s.threshold.toFixed(2)}  top-1 ${pct(s.top1)}  false hand-off ${pct(s.falseHandoff)}  uncovered hand-off ${pct(s.uncoveredHandoff)}`;
  return [
    `${name}, visitors ${visitors === "worst" ? "never rate (worst case)" : visitors === "best" ? "always rate (best case)" : "rate every second answer"}: ${s0.inScope} in-scope and ${s0.uncovered} uncovered test answers`,
    row("step 0: as written, default threshold", s0),
    row("step 1: after the month", s1),
    row("step 2: after the month, its own threshold", s2),
    ...(results.every((r) => r.leaveOneOut)
      ? [row("step 2, leave-one-out fit (not applied)", figuresOf(results.map((r) => r.leaveOneOut?.step as Step)))]
      : []),
    ...(results.every((r) => r.implicit)
      ? IMPLICIT_WEIGHTS.map((weight, k) =>
          row(
            `step 2, implicit labels x${weight} (not applied)`,
            figuresOf(results.map((r) => r.implicit?.[k]?.step as Step)),
          ),
        )
      : []),
    `  for the record, not a fit: ${bestOnTest(results.flatMap((r) => r.steps[1].rows))}`,
    `  the month: ${m.asked} chats; answered right ${m.answeredRight}, wrong ${m.answeredWrong}, uncovered answered ${m.uncoveredAnswered}; handed off ${m.handedOff}: ${m.learned} answered with an article, ${m.notCovered} marked not covered; ${m.added} example questions added (with ratings: thumbs-down ones included)`,
    `  labelled: ${answerable} answerable, ${uncoveredLabels} uncovered (thresholds shown are the mean over ${results.length} organization${results.length === 1 ? "" : "s"})`,
    ...messages.map((text) => `    ${text}`),
    ...results.flatMap((r) => (r.leaveOneOut ? [`    ${r.leaveOneOut.message}`] : [])),
    ...results.flatMap((r) => (r.implicit ?? []).map((i) => `    ${i.message}`)),
  ];
}

/** The small shop of bench/ai-shop.ts as a month's knowledge base: no example questions. */
export function shopKb(): MonthKb {
  return {
    name: "small shop (12 articles, no example questions)",
    articles: SHOP.map((a) => ({ key: a.slug, title: a.title, slug: a.slug, body: a.body, questions: [] })),
    train: SHOP.flatMap((a) => a.questions.slice(0, SHOP_TRAIN_PER_ARTICLE).map((q): [string, string] => [q, a.slug])),
    test: SHOP.flatMap((a) => a.questions.slice(SHOP_TRAIN_PER_ARTICLE).map((q): [string, string] => [q, a.slug])),
    uncoveredTrain: SHOP_UNCOVERED.slice(0, SHOP_UNCOVERED_TRAIN),
    uncoveredTest: SHOP_UNCOVERED.slice(SHOP_UNCOVERED_TRAIN),
  };
}

/**
 * One CLINC150 domain with 3 example questions per article; the month's questions are the next `monthly` train
 * questions of each intent and `uncovered` out-of-scope train questions; measured on the domain's test questions and
 * the first `oosTest` out-of-scope test questions.
 */
export function clincKb(clinc: Clinc, domain: string, monthly: number, uncovered: number, oosTest: number): MonthKb {
  const articles = domainArticles(clinc, domain, 3);
  return {
    name: `CLINC150 ${domain}`,
    articles: articles.map((a) => ({
      key: a.intent,
      title: a.title,
      slug: a.slug,
      body: a.body,
      questions: a.questions,
    })),
    train: articles.flatMap((a) =>
      clinc.splits.train
        .filter(([, intent]) => intent === a.intent)
        .slice(3, 3 + monthly)
        .map(([q]): [string, string] => [q, a.intent]),
    ),
    test: domainQuestions(clinc, domain, "test"),
    uncoveredTrain: clinc.splits.oos_train.slice(0, uncovered).map(([q]) => q),
    uncoveredTest: clinc.splits.oos_test.slice(0, oosTest).map(([q]) => q),
  };
}

/**
 * The simulated months of `npm run bench:ai` (or `-- --month` alone): the small shop, then CLINC150's domains
 * (BENCH_AI_MONTH_DOMAINS: how many, default all 10, 3 with --quick, 0 for the shop alone; BENCH_AI_MONTH_OOS: out-of-scope test questions per domain,
 * default 200), each with visitors who never rate and visitors who always do.
 */
export async function runMonths(clinc: Clinc, log: (line?: string) => void, quick = false): Promise<void> {
  // Every figure is of the encoded knowledge base, never of words alone because the encoder was late on a busy machine.
  process.env.AI_ENCODER_WAIT_MS ??= "600000";
  const dataDir = mkdtempSync(path.join(tmpdir(), "cove-bench-month-"));
  const database = await openDatabase({ kind: "embedded", dir: path.join(dataDir, "db") });
  wordVectors();
  lexicon();
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.cove.test>", outboxDir: path.join(dataDir, "outbox") },
    publicUrl: "http://127.0.0.1",
    ai: { provider: "embedded" },
    registrationsPerHour: 1000,
  });
  await app.ready();
  try {
    const started = performance.now();
    for (const visitors of VISITORS) {
      const shop = shopKb();
      log();
      for (const line of monthLines(shop.name, visitors, [await simulateMonth(app, database, shop, visitors)]))
        log(line);
    }
    log(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    const domains = Object.keys(clinc.domains).slice(
      0,
      process.env.BENCH_AI_MONTH_DOMAINS ? Number(process.env.BENCH_AI_MONTH_DOMAINS) : quick ? 3 : undefined,
    );
    const oosTest = Number(process.env.BENCH_AI_MONTH_OOS) || 200;
    for (const visitors of domains.length > 0 ? VISITORS : []) {
      const begun = performance.now();
      const results: MonthResult[] = [];
      for (const domain of domains) {
        results.push(
          await simulateMonth(
            app,
            database,
            clincKb(clinc, domain, SHOP_TRAIN_PER_ARTICLE, SHOP_UNCOVERED_TRAIN, oosTest),
            visitors,
          ),
        );
      }
      log();
      const name = `CLINC150, 3 example questions per article, ${domains.length} domains, ${oosTest} out-of-scope test questions each`;
      for (const line of monthLines(name, visitors, results)) log(line);
      log(`  (${((performance.now() - begun) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
