// Bundles the API for production: our TypeScript (and the contract package) into dist/main.js, with
// npm dependencies left as imports, and the SQL migrations copied beside it.
import { cpSync, readFileSync, rmSync } from "node:fs";
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
  external: Object.keys(pkg.dependencies ?? {}),
  logLevel: "warning",
});
cpSync("src/db/migrations", "dist/migrations", { recursive: true });
console.log("API built to apps/api/dist");
