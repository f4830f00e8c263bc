// Builds the chat widget into dist/widget.js: one small, self-contained, minified script for any browser of 2020 on.
// The API serves it at /widget.js (its build copies it beside the bundle; in development it bundles src/ itself with
// the same options, read from esbuild.json: apps/api/src/modules/chat/widget.ts).
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const options = JSON.parse(readFileSync(new URL("./esbuild.json", import.meta.url), "utf8"));
await build({ ...options, entryPoints: ["src/widget.ts"], outfile: "dist/widget.js" });
console.log("Chat widget built to apps/widget/dist/widget.js");
