/**
 * npm run bench:ai: how well the AI assistant answers, measured on CLINC150 through the real HTTP API.
 *
 * Each of the dataset's 10 domains becomes an organization whose knowledge base has one article per intent, written
 * from the intent's name, with the intent's train questions as alternative phrasings (bench/ai-clinc.ts). Then, per
 * provider, over HTTP against the real app in its own process:
 *   1. val: every val question of the domain and every out-of-scope val question is asked of each organization with
 *      its hand-off threshold at 0, and each organization's threshold is chosen on those confidences (the one that
 *      maximises half the in-scope answered-correctly rate plus half the out-of-scope hand-off rate), then saved
 *      through PUT /api/ai/settings;
 *   2. test, threshold 0: every in-scope test question, for top-1 source accuracy (nothing is handed off, so every
 *      answer names its best article);
 *   3. test, chosen thresholds: every in-scope test question and all 1,000 out-of-scope test questions asked of every
 *      organization, for the answered-correctly, false hand-off and out-of-scope hand-off rates and answer times.
 * Test questions never influence anything. It prints figures and asserts nothing.
 *
 * Providers: "embedded" (the default) and "openai", the OpenAI-compatible provider talking to a local server that
 * speaks the chat-completions protocol (apps/api/test/support/chat-completions-server.ts) unless AI_BASE_URL,
 * AI_MODEL (and AI_API_KEY) name a real one. The local server's "model" answers with the passage it is given and
 * cites article [1], so that row measures the provider's plumbing and overhead, not a language model's judgement.
 *
 * Environment (all optional):
 *   BENCH_AI_PROVIDERS   embedded,openai (default both)
 *   BENCH_AI_PHRASINGS   alternative phrasings (example questions) per article: all, or a number; a list runs each
 *                        (default all,3,0: the issue's three knowledge bases; with --quick, 3)
 *   BENCH_AI_DATABASE    embedded (default) or postgres; with postgres, DATABASE_URL is the admin connection
 *                        (default postgres://postgres@127.0.0.1:5432/postgres) and BENCH_DB the database that is
 *                        dropped and recreated (default cove_ai_bench)
 *   BENCH_AI_MONTH       0 leaves out the simulated month (bench/ai-month.ts: a small shop and CLINC150 with 3
 *                        example questions, before and after a month of the team answering hand-offs), which runs
 *                        last, in process; BENCH_AI_MONTH_DOMAINS and BENCH_AI_MONTH_OOS size its CLINC150 part;
 *                        BENCH_AI_MONTH_LOO=1 also prints step 2 with the threshold fitted leave-one-out (bench/ai-loo.ts,
 *                        never applied), on the newest BENCH_AI_MONTH_LOO_NEWEST labels (default 500);
 *                        BENCH_AI_MONTH_IMPLICIT=1 also prints step 2 with implicit answerable labels (answers nobody
 *                        complained about; bench/ai-implicit.ts, never applied) at weights 1 and 0.5;
 *                        BENCH_AI_MONTH_LABELS=<file> appends each organization's month labels (train side: confidence
 *                        and kind, no test question) to that file as a JSON line, to study the threshold rule on
 *                        them; BENCH_AI_MONTH_VISITORS=worst,best (default) chooses the months, "half" adds one where
 *                        every second answered visitor rates
 * Flags: --quick (3 domains, 200 out-of-scope questions, 3 example questions per article: a check that everything
 *        runs; the month on 3 domains);
 *        --month (the simulated month alone);
 *        --calibrate (fit the confidence calibration on val, in process, and print it; nothing else).
 */
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import pg from "pg";
import { confidenceOf } from "../apps/api/src/modules/ai/confidence.ts";
import type { AiConfig } from "../apps/api/src/platform/config.ts";
import {
  type ChatCompletionsServer,
  startChatCompletionsServer,
} from "../apps/api/test/support/chat-completions-server.ts";
import { fitCalibration, reliability, validationRows } from "./ai-calibrate.ts";
import { type Clinc, domainQuestions, loadClinc } from "./ai-clinc.ts";
import { runMonths } from "./ai-month.ts";
import type { AiServerMessage, AiServerPlan, BenchOrganization } from "./ai-server.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes("--quick");
const log = (line = "") => console.log(line);

interface Asked {
  domain: string;
  intent: string;
  confidence: number;
  handoff: boolean;
  source: string | null;
  ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function startServer(
  plan: AiServerPlan,
): Promise<{ child: ChildProcess; port: number; organizations: BenchOrganization[] }> {
  const child = fork(path.join(here, "ai-server.ts"), [], {
    env: {
      ...process.env,
      BENCH_AI_SERVER: JSON.stringify(plan),
      LOG_LEVEL: "silent",
      // The first question of each organization waits for its sentence vectors, so every figure is of the encoded
      // knowledge base; what that first question costs is printed on its own.
      AI_ENCODER_WAIT_MS: process.env.AI_ENCODER_WAIT_MS ?? "600000",
    },
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.on("message", (message: AiServerMessage) => {
      if (message.type === "ready") resolve({ child, port: message.port, organizations: message.organizations });
      else if (message.type === "failed") reject(new Error(message.error));
    });
    child.on("exit", (code) => reject(new Error(`the benchmark server exited with code ${code}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send("stop");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill();
}

function client(port: number) {
  const base = `http://127.0.0.1:${port}`;
  return {
    async ask(token: string, message: string): Promise<{ answer: AiResponseAnswer; ms: number }> {
      const started = performance.now();
      const res = await fetch(`${base}/api/chat/ai-response`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ message, customerInfo: { plan: "growth" } }),
      });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`ai-response answered ${res.status}: ${body}`);
      return { answer: JSON.parse(body) as AiResponseAnswer, ms };
    },
    async setThreshold(token: string, threshold: number): Promise<void> {
      const res = await fetch(`${base}/api/ai/settings`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ handoff_threshold: threshold }),
      });
      if (res.status !== 200) throw new Error(`settings answered ${res.status}: ${await res.text()}`);
    },
  };
}

type Client = ReturnType<typeof client>;

async function askAll(
  api: Client,
  org: BenchOrganization,
  questions: [string, string][],
  into: Asked[],
): Promise<void> {
  const idToIntent = new Map(Object.entries(org.articles).map(([intent, id]) => [id, intent]));
  for (const [text, intent] of questions) {
    const { answer, ms } = await api.ask(org.token, text);
    const first = answer.sources[0];
    into.push({
      domain: org.domain,
      intent,
      confidence: answer.confidence,
      handoff: answer.handoff,
      source: first ? (idToIntent.get(first.id) ?? `other:${first.id}`) : null,
      ms,
    });
  }
}

/** The threshold that maximises half the in-scope answered-correctly rate plus half the out-of-scope hand-off rate. */
function chooseThreshold(rows: Asked[]): { threshold: number; objective: number } {
  const inScope = rows.filter((r) => r.intent !== "oos");
  const outOfScope = rows.filter((r) => r.intent === "oos");
  let best = { threshold: 0.5, objective: -1 };
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const answeredCorrectly = inScope.filter((r) => r.confidence >= t && r.source === r.intent).length / inScope.length;
    const handedOff = outOfScope.filter((r) => r.confidence < t).length / outOfScope.length;
    const objective = 0.5 * answeredCorrectly + 0.5 * handedOff;
    if (objective > best.objective + 1e-12) best = { threshold: t, objective };
  }
  return best;
}

/** The knowledge base's shape, as the issue names its rows. */
const shape = (phrasings: number | null) =>
  phrasings === null
    ? "all train phrasings per article"
    : phrasings === 0
      ? "no example questions (title and a short body only)"
      : `${phrasings} example questions per article`;

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);

async function runProvider(
  clinc: Clinc,
  name: string,
  ai: AiConfig,
  database: AiServerPlan["database"],
  phrasings: number | null,
  domains: string[],
  oosTest: [string, string][],
): Promise<string[]> {
  const started = performance.now();
  const { child, port, organizations } = await startServer({ database, ai, phrasings, domains });
  const api = client(port);
  try {
    // 1. val, threshold 0: confidences to choose each organization's threshold on.
    const thresholds: Record<string, number> = {};
    const firstAnswers: number[] = [];
    for (const org of organizations) {
      await api.setThreshold(org.token, 0);
      const rows: Asked[] = [];
      await askAll(api, org, [...domainQuestions(clinc, org.domain, "val"), ...clinc.splits.oos_val], rows);
      firstAnswers.push(rows[0]?.ms ?? 0);
      thresholds[org.domain] = chooseThreshold(rows).threshold;
    }
    firstAnswers.sort((a, b) => a - b);
    // 2. test, threshold 0: top-1 source accuracy.
    const top1Rows: Asked[] = [];
    for (const org of organizations) await askAll(api, org, domainQuestions(clinc, org.domain, "test"), top1Rows);
    // 3. test, chosen thresholds.
    const rows: Asked[] = [];
    for (const org of organizations) {
      await api.setThreshold(org.token, thresholds[org.domain] ?? 0.5);
      await askAll(api, org, [...domainQuestions(clinc, org.domain, "test"), ...oosTest], rows);
    }
    // 4. As after a restart: the indexes in memory are gone, the sentence vectors stored in the database are not.
    const restarted = new Promise<void>((resolve) => {
      const done = (message: AiServerMessage) => {
        if (message.type !== "restarted") return;
        child.off("message", done);
        resolve();
      };
      child.on("message", done);
    });
    child.send("restart");
    await restarted;
    const afterRestart: number[] = [];
    for (const org of organizations) {
      const [question] = domainQuestions(clinc, org.domain, "val");
      afterRestart.push((await api.ask(org.token, question?.[0] ?? "hello")).ms);
    }
    afterRestart.sort((a, b) => a - b);
    const inScope = rows.filter((r) => r.intent !== "oos");
    const outOfScope = rows.filter((r) => r.intent === "oos");
    const times = rows.map((r) => r.ms).sort((a, b) => a - b);
    const thresholdList = Object.values(thresholds);
    return [
      `${name}, ${shape(phrasings)} (${domains.length} organizations, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
      `  thresholds chosen on val       ${thresholdList.map((t) => t.toFixed(2)).join(" ")}`,
      `  top-1 source accuracy          ${pct(top1Rows.filter((r) => r.source === r.intent).length, top1Rows.length)} of ${top1Rows.length} in-scope test questions`,
      `  answered correctly             ${pct(inScope.filter((r) => !r.handoff && r.source === r.intent).length, inScope.length)}`,
      `  answered wrongly               ${pct(inScope.filter((r) => !r.handoff && r.source !== r.intent).length, inScope.length)}`,
      `  false hand-off (in-scope)      ${pct(inScope.filter((r) => r.handoff).length, inScope.length)}`,
      `  hand-off (out-of-scope)        ${pct(outOfScope.filter((r) => r.handoff).length, outOfScope.length)} of ${outOfScope.length} (${oosTest.length} questions x ${domains.length} organizations)`,
      "  calibration on test (in-scope, threshold 0): confidence band, answers, share whose source was right",
      ...reliability(top1Rows.map((r) => ({ p: r.confidence, correct: r.source === r.intent }))).map((l) => `  ${l}`),
      `  answer time, HTTP round trip   median ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${(times[times.length - 1] ?? 0).toFixed(1)} ms over ${times.length} answers`,
      `  first answer of an organization (index built, sentences encoded)   median ${percentile(firstAnswers, 50).toFixed(0)} ms, max ${(firstAnswers[firstAnswers.length - 1] ?? 0).toFixed(0)} ms`,
      `  first answer after a restart (index built, vectors read back)      median ${percentile(afterRestart, 50).toFixed(0)} ms, max ${(afterRestart[afterRestart.length - 1] ?? 0).toFixed(0)} ms`,
    ];
  } finally {
    await stopServer(child);
  }
}

async function prepareDatabase(): Promise<AiServerPlan["database"]> {
  if ((process.env.BENCH_AI_DATABASE || "embedded") !== "postgres") return { kind: "embedded" };
  const adminUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const name = process.env.BENCH_DB || "cove_ai_bench";
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error("BENCH_DB must be a plain lower-case identifier");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { kind: "postgres", url: url.toString() };
}

/** Fits both calibrations: scores with the sentence encoder (CALIBRATION_WITH_SENTENCES) and without (CALIBRATION). */
async function calibrate(clinc: Clinc): Promise<void> {
  log("Fitting the confidence calibrations on CLINC150 val (in process; test is not read)...");
  for (const sentences of [true, false]) {
    const rows = await validationRows(clinc, sentences);
    const fitted = fitCalibration(rows);
    log();
    log(
      `Paste into apps/api/src/modules/ai/confidence.ts, ${sentences ? "CALIBRATION_WITH_SENTENCES" : "CALIBRATION"}:`,
    );
    const w = fitted.weights;
    log(`  weights: { best: ${w.best}, margin: ${w.margin}, coverage: ${w.coverage} },`);
    log(`  bias: ${fitted.bias},`);
    log(`  knots: [${fitted.knots.map(([z, p]) => `[${z}, ${p}]`).join(", ")}],`);
    log(`  shortCaps: [${fitted.shortCaps.join(", ")}],`);
    log(`Reliability of the refit on val (${rows.length} questions, 0 / 3 / 10 / all phrasings pooled):`);
    log(reliability(rows.map((r) => ({ p: confidenceOf(r.signals, fitted), correct: r.correct }))).join("\n"));
    log("Reliability of the calibration the code ships (confidence.ts) on the same questions:");
    log(reliability(rows.map((r) => ({ p: confidenceOf(r.signals), correct: r.correct }))).join("\n"));
  }
}

async function main(): Promise<void> {
  const clinc = loadClinc();
  if (process.argv.includes("--calibrate")) return calibrate(clinc);
  if (process.argv.includes("--month")) return runMonths(clinc, log, quick);

  const providers = (process.env.BENCH_AI_PROVIDERS || "embedded,openai").split(",").map((p) => p.trim());
  const phrasingList = (process.env.BENCH_AI_PHRASINGS || (quick ? "3" : "all,3,0"))
    .split(",")
    .map((p) => (p.trim() === "all" ? null : Number.parseInt(p, 10)));
  const domains = Object.keys(clinc.domains).slice(0, quick ? 3 : undefined);
  const oosTest = clinc.splits.oos_test.slice(0, quick ? 200 : undefined);
  const database = await prepareDatabase();
  log(
    `npm run bench:ai: CLINC150, ${domains.length} organizations, database ${database.kind}${quick ? " (quick)" : ""}`,
  );

  let local: ChatCompletionsServer | null = null;
  try {
    for (const phrasings of phrasingList) {
      for (const provider of providers) {
        let ai: AiConfig = { provider: "embedded" };
        let label = "embedded provider";
        if (provider === "openai") {
          if (process.env.AI_BASE_URL && process.env.AI_MODEL) {
            ai = {
              provider: "openai",
              baseUrl: process.env.AI_BASE_URL,
              apiKey: process.env.AI_API_KEY,
              model: process.env.AI_MODEL,
              timeoutMs: 30_000,
            };
            label = `OpenAI-compatible provider (${process.env.AI_MODEL} at ${process.env.AI_BASE_URL})`;
          } else {
            local ??= await startChatCompletionsServer();
            ai = {
              provider: "openai",
              baseUrl: local.url,
              apiKey: undefined,
              model: "local-protocol-server",
              timeoutMs: 10_000,
            };
            label = "OpenAI-compatible provider (local protocol server, no language model)";
          }
        }
        log();
        for (const line of await runProvider(clinc, label, ai, database, phrasings, domains, oosTest)) log(line);
      }
    }
  } finally {
    await local?.close();
  }
  // Issue 35: the simulated month (bench/ai-month.ts), in process; BENCH_AI_MONTH=0 leaves it out.
  if (process.env.BENCH_AI_MONTH !== "0") {
    log();
    log("The simulated month: a small shop and CLINC150 (3 example questions), before and after (bench/ai-month.ts)");
    await runMonths(clinc, log, quick);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
