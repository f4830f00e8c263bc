#!/usr/bin/env node
// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the web build, once, at the highest levels:
// the server (apps/api/src/platform/web.ts, @fastify/static's preCompressed) then sends the copy the browser accepts
// without compressing anything per request. Runs after `vite build` (apps/web `npm run build`).
//
// Usage: node scripts/precompress.mjs [dist directory]

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, "../dist"));

/** What compresses: text. Images and fonts of the build are compressed formats already. */
const TEXT = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".xml", ".webmanifest"]);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // .vite holds the build manifest, which only scripts/size.mjs reads.
    if (entry.isDirectory()) {
      if (entry.name !== ".vite") yield* files(full);
    } else if (TEXT.has(path.extname(entry.name))) {
      yield full;
    }
  }
}

let count = 0;
let before = 0;
let afterBr = 0;
for (const file of files(dist)) {
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  // A copy that is not smaller is not written: the server then sends the file itself.
  if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  count += 1;
  before += bytes.length;
  afterBr += Math.min(br.length, bytes.length);
}
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
console.log(
  `precompressed ${count} files in ${path.relative(process.cwd(), dist) || dist}: ${kb(before)} -> ${kb(afterBr)} brotli`,
);
