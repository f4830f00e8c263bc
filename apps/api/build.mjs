// Bundles the API for production: our TypeScript (and the contract package) into dist/main.js, with
// npm dependencies left as imports, and the SQL migrations, demo articles and chat widget copied beside it.
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  // esbuild: only development bundles the chat widget on the fly (modules/chat/widget.ts); production reads dist/widget.js.
  external: [...Object.keys(pkg.dependencies ?? {}), "esbuild"],
  logLevel: "warning",
});
// The sentence encoder's thread (modules/ai/sentence-encoder.ts starts it from beside main.js).
await build({
  entryPoints: ["src/modules/ai/encoder.worker.ts"],
  outfile: "dist/encoder-worker.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: Object.keys(pkg.dependencies ?? {}),
  logLevel: "warning",
});
cpSync("src/db/migrations", "dist/migrations", { recursive: true });
// The demo organization's help articles (db/seed-kb.ts reads them at seeding).
cpSync("src/db/demo-kb", "dist/demo-kb", { recursive: true });
// The chat widget's script, served at /widget.js (built first by apps/widget: npm run build).
const widget = new URL("../widget/dist/widget.js", import.meta.url);
if (!existsSync(widget))
  throw new Error("apps/widget/dist/widget.js is missing: run npm run build -w @cove/widget first");
cpSync(widget, "dist/widget.js");
console.log("API built to apps/api/dist");
