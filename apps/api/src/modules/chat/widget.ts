import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The chat widget's script (widget/widget.client.ts). A production build bundles it beside the API (build.mjs:
 * dist/widget.js); in development and tests it is bundled from its source once, on the first request, with esbuild.
 */
export interface WidgetScript {
  body: string;
  gzip: Buffer;
}

let script: Promise<WidgetScript> | null = null;

async function bundle(): Promise<string> {
  const here = import.meta.dirname;
  const built = path.join(here, "widget.js");
  if (existsSync(built)) return readFileSync(built, "utf8");
  const { build } = await import("esbuild");
  const out = await build({
    ...WIDGET_BUILD,
    entryPoints: [path.join(here, "widget", "widget.client.ts")],
    write: false,
  });
  const file = out.outputFiles?.[0];
  if (!file) throw new Error("the chat widget did not build");
  return file.text;
}

/** The options every build of the widget uses: one small, self-contained, minified script for any browser of 2020 on. */
export const WIDGET_BUILD = {
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
} as const;

export function widgetScript(): Promise<WidgetScript> {
  script ??= bundle().then((body) => ({ body, gzip: gzipSync(body) }));
  script.catch(() => {
    script = null;
  });
  return script;
}
