#!/usr/bin/env node
// Prints the size of every built JavaScript chunk of the web app as the server sends it, and the JavaScript that first
// visits download: the landing page "/" (budget 100 KB gzip), the sign-in page /login, and the signed-in app shell on
// /dashboard (budget 200 KB gzip), and the chat widget's script that customers' websites load (apps/api/dist/widget.js,
// budget 25 KB gzip), see docs/engineering.md, Budgets. Exits with 1 when a budget is exceeded.
//
// What is sent: the build writes a brotli (.br) and a gzip (.gz) copy beside each file worth compressing
// (apps/web/scripts/precompress.mjs) and the server sends the one the browser takes (apps/api/src/platform/web.ts);
// a file whose copy would not be smaller goes out as it is. So "gzip" below is the .gz copy's size, or the file's own, and
// "brotli" what Chrome, Firefox and Safari download. A build without copies is measured by gzipping it here (level 9),
// and the output says so. Budgets are judged on gzip.
//
// The visits are followed through Vite's build manifest (apps/web/dist/.vite/manifest.json, `build.manifest`): from the
// entry of index.html, along static imports (what index.html and Vite's preload helper fetch up front) and along the
// dynamic imports that the visit is known to take on its first screen.
//
// Usage: npm run size [-- <dist directory>]

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.resolve(process.argv[2] ?? path.join(root, "apps/web/dist"));
const manifestPath = path.join(dist, ".vite/manifest.json");
if (!existsSync(manifestPath)) {
  console.error(`No build manifest at ${manifestPath}: run \`npm run build\` first.`);
  process.exit(1);
}
/** @type {Record<string, {file: string, src?: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[]}>} */
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));

const KB = 1000;
const precompressed = readdirSync(path.join(dist, "assets")).some((f) => f.endsWith(".js.gz"));
const sizeCache = new Map();
/** A file's size on disk, and as sent to a browser taking gzip and to one taking brotli. */
function sizes(file) {
  let entry = sizeCache.get(file);
  if (!entry) {
    const full = path.join(dist, file);
    const bytes = readFileSync(full);
    const sent = (ext, compress) => {
      if (!precompressed) return compress(bytes).length;
      return existsSync(full + ext) ? statSync(full + ext).size : bytes.length;
    };
    entry = {
      raw: bytes.length,
      gzip: sent(".gz", (b) => gzipSync(b, { level: 9 })),
      br: sent(".br", (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
    };
    sizeCache.set(file, entry);
  }
  return entry;
}
const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;

/**
 * Each visit lists the modules (manifest keys) its first screen loads; their static imports are added. A key that is
 * missing means the code moved: update the list rather than measure the wrong thing.
 */
const STARTUP_ONLY = "(non-route lazy chunks of the app start: toaster, session check)";
const visits = [
  {
    name: 'First visit to "/" (landing page)',
    budget: 100 * KB,
    seeds: ["index.html", "src/pages/public/site/standalone.tsx", "src/pages/public/landing/landing-page.tsx"],
  },
  {
    name: "Sign-in page (/login)",
    budget: null,
    seeds: ["index.html", "src/app/start-app.tsx", STARTUP_ONLY, "src/features/auth/routes/login-route.tsx"],
  },
  {
    name: "Signed-in app shell (/dashboard, stored session)",
    budget: 200 * KB,
    seeds: [
      "index.html",
      "src/app/start-app.tsx",
      STARTUP_ONLY,
      "src/app/layouts/app-layout.tsx",
      "src/features/dashboard/routes/dashboard-route.tsx",
    ],
    // Fetched once the dashboard is on screen, for admins only: the getting-started checklist below it.
    after: {
      name: "then, for an admin, the getting-started checklist",
      seeds: ["src/features/dashboard/components/getting-started.tsx"],
    },
  },
];

function expand(seed) {
  if (seed !== STARTUP_ONLY) return [seed];
  // Dynamic imports of the app start that are not route modules (those have a src/ key) load on every app start.
  return (manifest["src/app/start-app.tsx"]?.dynamicImports ?? []).filter((key) => !manifest[key]?.src);
}

function closure(seeds) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`scripts/size.mjs: "${key}" is not in the build manifest; update the visit list.`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const seed of seeds.flatMap(expand)) visit(seed);
  return [...seen].map((key) => manifest[key].file);
}

const jsFiles = readdirSync(path.join(dist, "assets"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => `assets/${f}`)
  .sort((a, b) => sizes(a).gzip - sizes(b).gzip);
const width = Math.max(...jsFiles.map((f) => f.length));
const row = (file) => {
  const { raw, gzip, br } = sizes(file);
  return `  ${file.padEnd(width)}  ${kb(raw).padStart(10)}  gzip ${kb(gzip).padStart(9)}  brotli ${kb(br).padStart(9)}`;
};
const total = (files, key) => files.reduce((sum, f) => sum + sizes(f)[key], 0);

console.log(
  precompressed
    ? `JavaScript chunks in ${path.relative(root, dist) || dist}, as sent (the build's .gz and .br copies):`
    : `JavaScript chunks in ${path.relative(root, dist) || dist} (no precompressed copies: gzip level 9 and brotli 11 here):`,
);
for (const file of jsFiles) console.log(row(file));
console.log(
  `  ${"all chunks".padEnd(width)}  ${kb(total(jsFiles, "raw")).padStart(10)}  gzip ${kb(total(jsFiles, "gzip")).padStart(9)}  brotli ${kb(total(jsFiles, "br")).padStart(9)}`,
);

const summary = (files) =>
  `${kb(total(files, "gzip"))} gzip, ${kb(total(files, "br"))} brotli, ${kb(total(files, "raw"))} uncompressed`;
let failed = false;
for (const visit of visits) {
  const files = closure(visit.seeds);
  const gzip = total(files, "gzip");
  const verdict =
    visit.budget === null ? "" : ` (budget ${kb(visit.budget)} gzip) ${gzip <= visit.budget ? "OK" : "OVER BUDGET"}`;
  failed ||= visit.budget !== null && gzip > visit.budget;
  console.log(`\n${visit.name}: ${summary(files)}${verdict}`);
  for (const file of files.sort((a, b) => sizes(b).gzip - sizes(a).gzip)) console.log(row(file));
  if (visit.after) {
    const more = closure(visit.after.seeds).filter((f) => !files.includes(f));
    console.log(`  ${visit.after.name}: ${summary(more)} more`);
    for (const file of more) console.log(row(file));
  }
}

// The chat widget (built by apps/widget, copied beside the API): the one script every page of a customer's website loads.
const widgetPath = path.join(root, "apps/api/dist/widget.js");
if (existsSync(widgetPath)) {
  const bytes = readFileSync(widgetPath);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const budget = 25 * KB;
  const ok = gzip <= budget;
  failed ||= !ok;
  console.log(
    `\nChat widget (apps/api/dist/widget.js): ${kb(gzip)} gzip (budget ${kb(budget)}) ${ok ? "OK" : "OVER BUDGET"}`,
  );
} else {
  console.error("\nNo apps/api/dist/widget.js: run `npm run build` to measure the chat widget.");
  failed = true;
}
process.exit(failed ? 1 : 0);
