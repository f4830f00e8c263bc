import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { BuildOptions } from "esbuild";

/**
 * The chat widget's script (apps/widget). A production build copies it beside the API (build.mjs: dist/widget.js); in
 * development and tests it is bundled from its source once, on the first request, with esbuild.
 */
export interface WidgetScript {
  body: string;
  br: Buffer;
  gzip: Buffer;
  /** Names this build of the script: a browser holding it revalidates for a 304. */
  etag: string;
}

let script: Promise<WidgetScript> | null = null;

async function bundle(): Promise<string> {
  const here = import.meta.dirname;
  const built = path.join(here, "widget.js");
  if (existsSync(built)) return readFileSync(built, "utf8");
  const { build } = await import("esbuild");
  // The options of the widget's own build (apps/widget/build.mjs), kept in one file both read.
  const widget = path.join(here, "../../../../widget");
  const options = JSON.parse(readFileSync(path.join(widget, "esbuild.json"), "utf8")) as BuildOptions;
  const out = await build({ ...options, entryPoints: [path.join(widget, "src/widget.ts")], write: false });
  const file = out.outputFiles?.[0];
  if (!file) throw new Error("the chat widget did not build");
  return file.text;
}

/**
 * Compressed once, at the highest levels, like the web app's files (apps/web/scripts/precompress.mjs); on zlib's
 * threads, so the first request for the script holds up no other.
 */
async function compressed(body: string): Promise<WidgetScript> {
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    promisify(gzip)(body, { level: 9 }),
  ]);
  return { body, br, gzip: gz, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` };
}

export function widgetScript(): Promise<WidgetScript> {
  script ??= bundle().then(compressed);
  script.catch(() => {
    script = null;
  });
  return script;
}
