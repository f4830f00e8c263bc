import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * An OpenAI-compatible embeddings endpoint (`POST <AI_EMBEDDINGS_URL>/embeddings`: a local Ollama with
 * nomic-embed-text, OpenAI's text-embedding-3-small, ...) as the assistant's sentence encoder, when one is configured
 * (docs/decisions/2026-11-29-no-wait-and-embeddings-endpoint.md). Request `{ model, input: string[] }`, answer
 * `{ data: [{ index, embedding }], model, usage }`. Texts go in batches; every answer is checked (JSON, one vector
 * per text, the same dimension throughout and as before); a failure puts the endpoint aside for a while, and the
 * embedded encoder stands in meanwhile.
 */
export interface EmbeddingsEndpoint {
  /** Where the request goes: the configured base (…/v1) with /embeddings after it, or the full address as given. */
  url: string;
  model: string;
  key: string | undefined;
  /** A batch of the knowledge base's texts may take this long; a question's own vector, at most its wait. */
  timeoutMs: number;
}

/** The configured endpoint, or null. Validated with the rest of the configuration at start (platform/config.ts). */
export function embeddingsEndpoint(): EmbeddingsEndpoint | null {
  const base = process.env.AI_EMBEDDINGS_URL;
  const model = process.env.AI_EMBEDDINGS_MODEL;
  if (!base || !model) return null;
  const timeout = Number(process.env.AI_EMBEDDINGS_TIMEOUT_MS);
  const trimmed = base.replace(/\/+$/, "");
  return {
    url: trimmed.endsWith("/embeddings") ? trimmed : `${trimmed}/embeddings`,
    model,
    key: process.env.AI_EMBEDDINGS_KEY || undefined,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : EMBEDDINGS_TIMEOUT_MS_DEFAULT,
  };
}

export const EMBEDDINGS_TIMEOUT_MS_DEFAULT = 10_000;
/** Texts per request: well under every provider's limit on inputs (OpenAI's is 2,048), a few seconds of work. */
export const EMBEDDINGS_BATCH = 64;
/** After a failure the endpoint is left aside this long: questions and index work use the embedded encoder. */
export const EMBEDDINGS_RETRY_MS = 60_000;
/** The largest dimension accepted (text-embedding-3-large has 3,072). */
const MAX_DIMENSIONS = 8192;

/**
 * The name vectors of this model are kept under (sentences.ts, vectorKey): a change of AI_EMBEDDINGS_MODEL is another
 * encoder, whose vectors are encoded anew, and never compared with the old ones.
 */
export const endpointEncoderName = (endpoint: Pick<EmbeddingsEndpoint, "model">) => `embeddings:${endpoint.model}`;

/** A short, stable mark of an encoder's name, prefixed to its stored vectors' keys. */
export const encoderMark = (name: string) => createHash("sha256").update(name).digest("base64url").slice(0, 8);

const answer = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().min(0),
        embedding: z.array(z.number().finite()).min(2).max(MAX_DIMENSIONS),
      }),
    )
    .min(1),
});

/** Each model's dimension, as its first good answer in this process gave it: a later answer must match. */
const dimensionsOf = new Map<string, number>();
let failedAt = Number.NEGATIVE_INFINITY;

/** Whether the endpoint is configured and was not put aside by a recent failure. */
export function endpointUsable(): EmbeddingsEndpoint | null {
  const endpoint = embeddingsEndpoint();
  return endpoint && performance.now() - failedAt >= EMBEDDINGS_RETRY_MS ? endpoint : null;
}

/** Puts the endpoint aside after a failure (the warning names it), so nothing waits on it again for a while. */
function putAside(endpoint: EmbeddingsEndpoint, reason: string): void {
  failedAt = performance.now();
  process.emitWarning(
    `Embeddings endpoint ${endpoint.url} failed (${reason}); the embedded encoder stands in for ${EMBEDDINGS_RETRY_MS / 1000} s`,
  );
}

/** Forgets a failure at once (tests; the endpoint is otherwise tried again after EMBEDDINGS_RETRY_MS). */
export function forgetEndpointFailure(): void {
  failedAt = Number.NEGATIVE_INFINITY;
}

/** The model's dimension, once an answer gave it. */
export const endpointDimensions = (endpoint: EmbeddingsEndpoint) => dimensionsOf.get(endpoint.model);

/** One batch: unit-length rows in the texts' order, or an error saying what was wrong with the answer. */
async function requestBatch(endpoint: EmbeddingsEndpoint, texts: string[], timeoutMs: number): Promise<number[][]> {
  const res = await fetch(endpoint.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}),
    },
    body: JSON.stringify({ model: endpoint.model, input: texts }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const raw = await res.text();
  if (!res.ok) throw new Error(`it answered ${res.status}`);
  let parsed: z.infer<typeof answer>;
  try {
    parsed = answer.parse(JSON.parse(raw));
  } catch {
    throw new Error("its answer is not a list of embeddings");
  }
  const rows: number[][] = [];
  for (const item of parsed.data) rows[item.index] = item.embedding;
  if (parsed.data.length !== texts.length || rows.length !== texts.length || rows.some((r) => !r))
    throw new Error(`it gave ${parsed.data.length} embeddings for ${texts.length} texts`);
  const expected = dimensionsOf.get(endpoint.model) ?? rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== expected))
    throw new Error(
      `it gave embeddings of ${[...new Set(rows.map((r) => r.length))].join(", ")} dimensions, not ${expected}`,
    );
  dimensionsOf.set(endpoint.model, expected);
  return rows;
}

/**
 * One batch, sent again once when the connection failed before any answer: a kept-alive connection the server (or a
 * proxy) closed while idle fails the next request so, and the calibration command's long pauses between batches
 * met it every time. A timeout or an answer is never retried.
 */
async function requestOnce(endpoint: EmbeddingsEndpoint, texts: string[], timeoutMs: number): Promise<number[][]> {
  try {
    return await requestBatch(endpoint, texts, timeoutMs);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return requestBatch(endpoint, texts, timeoutMs);
  }
}

/** Unit-length rows of `texts` (an empty text's row is zeros), one Float32Array; null when a batch failed. */
export async function encodeAtEndpoint(
  endpoint: EmbeddingsEndpoint,
  texts: string[],
  timeoutMs: number,
  progress?: (first: number, rows: Float32Array, dimensions: number) => void,
  wanted?: () => boolean,
): Promise<{ rows: Float32Array; dimensions: number } | null> {
  let out: Float32Array | null = null;
  let dimensions = dimensionsOf.get(endpoint.model) ?? 0;
  for (let i = 0; i < texts.length; i += EMBEDDINGS_BATCH) {
    if (wanted && !wanted()) return null;
    const batch = texts.slice(i, i + EMBEDDINGS_BATCH);
    // Providers refuse an empty input; such a text keeps a zero row, as with the embedded encoder.
    const present = batch.map((t, k) => [t.trim(), k] as const).filter(([t]) => t.length > 0);
    let vectors: number[][] = [];
    try {
      if (present.length > 0)
        vectors = await requestOnce(
          endpoint,
          present.map(([t]) => t),
          timeoutMs,
        );
    } catch (err) {
      const reason =
        (err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (err as Error).message;
      putAside(endpoint, reason);
      return null;
    }
    dimensions = vectors[0]?.length ?? dimensions;
    if (dimensions === 0) continue;
    out ??= new Float32Array(texts.length * dimensions);
    const chunk = new Float32Array(batch.length * dimensions);
    vectors.forEach((vector, k) => {
      const row = present[k]?.[1] ?? 0;
      const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
      vector.forEach((v, d) => {
        chunk[row * dimensions + d] = v / norm;
      });
    });
    out.set(chunk, i * dimensions);
    progress?.(i, chunk, dimensions);
  }
  return { rows: out ?? new Float32Array(texts.length * dimensions), dimensions };
}
