// Builds the chat widget into dist/widget.js: one small, self-contained, minified script for any browser of 2020 on.
// The API serves it at /widget.js (its build copies it beside the bundle; in development it bundles src/ itself with
// the same options: apps/api/src/modules/chat/widget.ts).
import { build } from "esbuild";

await build({
  entryPoints: ["src/widget.ts"],
  outfile: "dist/widget.js",
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
});
console.log("Chat widget built to apps/widget/dist/widget.js");
