#!/usr/bin/env node
// Prints the gzip size of every built JavaScript chunk of the web app, and the JavaScript two first visits download:
// the landing page "/" (budget 100 KB gzip) and the signed-in app shell on /dashboard (budget 200 KB gzip), and the
// chat widget's script that customers' websites load (apps/api/dist/widget.js, budget 25 KB gzip), see
// ENGINEERING.md section 6. Exits with 1 when a budget is exceeded.
//
// The visits are followed through Vite's build manifest (apps/web/dist/.vite/manifest.json, `build.manifest`): from the
// entry of index.html, along static imports (what index.html and Vite's preload helper fetch up front) and along the
// dynamic imports that the visit is known to take on its first screen.
//
// Usage: npm run size [-- <dist directory>]

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

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
const gzipCache = new Map();
function sizes(file) {
  let entry = gzipCache.get(file);
  if (!entry) {
    const bytes = readFileSync(path.join(dist, file));
    entry = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    gzipCache.set(file, entry);
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
    name: "Signed-in app shell (/dashboard, stored session)",
    budget: 200 * KB,
    seeds: [
      "index.html",
      "src/app/start-app.tsx",
      STARTUP_ONLY,
      "src/app/layouts/app-layout.tsx",
      "src/features/dashboard/routes/dashboard-route.tsx",
    ],
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

console.log(`JavaScript chunks in ${path.relative(root, dist) || dist} (gzip level 9):`);
for (const file of jsFiles) {
  const { raw, gzip } = sizes(file);
  console.log(`  ${file.padEnd(width)}  ${kb(raw).padStart(10)}  gzip ${kb(gzip).padStart(9)}`);
}
const allGzip = jsFiles.reduce((sum, f) => sum + sizes(f).gzip, 0);
console.log(`  ${"all chunks".padEnd(width)}  ${"".padStart(10)}  gzip ${kb(allGzip).padStart(9)}`);

let failed = false;
for (const visit of visits) {
  const files = closure(visit.seeds);
  const total = files.reduce((sum, f) => sum + sizes(f).gzip, 0);
  const ok = total <= visit.budget;
  failed ||= !ok;
  console.log(`\n${visit.name}: ${kb(total)} gzip (budget ${kb(visit.budget)}) ${ok ? "OK" : "OVER BUDGET"}`);
  for (const file of files.sort((a, b) => sizes(b).gzip - sizes(a).gzip)) {
    console.log(`  ${file.padEnd(width)}  gzip ${kb(sizes(file).gzip).padStart(9)}`);
  }
}

// The chat widget (built by apps/api/build.mjs): the one script every page of a customer's website loads.
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
