import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built web app, apps/web/dist: seen from apps/api/src/platform in development, from apps/api/dist once bundled. */
export const WEB_DIST =
  [path.resolve(here, "../../../web/dist"), path.resolve(here, "../../web/dist")].find((dir) =>
    existsSync(path.join(dir, "index.html")),
  ) ?? path.resolve(here, "../../../web/dist");

/**
 * Serves the built single-page app and answers every other GET that is not an API call with index.html, so
 * client-side routes survive a reload. Unknown /api paths get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance): Promise<void> {
  const hasBuild = existsSync(path.join(WEB_DIST, "index.html"));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      setHeaders: (reply, file) => {
        // Vite fingerprints everything under assets/, so those files can be cached for good.
        if (file.includes(`${path.sep}assets${path.sep}`)) {
          reply.setHeader("Cache-Control", "public, max-age=31536000, immutable");
        }
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split("?")[0] ?? "";
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      throw new AppError("NOT_FOUND", `There is no API endpoint ${req.method} ${pathname}`);
    }
    if ((req.method === "GET" || req.method === "HEAD") && hasBuild) {
      return reply.header("Cache-Control", "no-cache").sendFile("index.html");
    }
    throw new AppError(
      "NOT_FOUND",
      hasBuild ? "Not found" : "The web app is not built: run npm run build (npm start does it for you).",
    );
  });
}
