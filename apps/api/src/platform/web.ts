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

/** Files under assets/ carry a hash of their content in their name (Vite): a new build gives them new names. */
export const HASHED_ASSETS = "public, max-age=31536000, immutable";
/** Everything else (index.html, favicon.svg) keeps its name across builds: the browser asks again each time (ETag). */
export const REVALIDATE = "no-cache";

/** The public marketing, legal and demo pages: what the sitemap lists and robots.txt lets crawlers read. */
export const PUBLIC_PAGES = ["/", "/about", "/terms", "/privacy", "/demo", "/ai-test"] as const;

/**
 * What crawlers are asked to leave alone: the signed-in app (a sign-in page is all they would see), the pages of the
 * emailed single-use links, the developer pages and the API. The help centers (/help/...) stay open: they are meant
 * to be found.
 */
const NOT_FOR_CRAWLERS = [
  "/api/",
  "/dashboard",
  "/tickets",
  "/contacts",
  "/chat",
  "/ai-assistant",
  "/knowledge-base",
  "/users",
  "/profile",
  "/automation",
  "/billing",
  "/settings",
  "/accept-invite",
  "/reset-password",
  "/portal/",
  "/debug",
];

/** Text files of the build that scripts/precompress.mjs may have a .br/.gz copy of: their answers vary by encoding. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

export function robotsTxt(publicUrl: string): string {
  return [
    "# Cove: the public pages are for everyone; the signed-in app, its emailed links and the API are not for crawlers.",
    "User-agent: *",
    // "/$" is the landing page alone; "Allow: /" would allow everything.
    ...PUBLIC_PAGES.map((page) => `Allow: ${page === "/" ? "/$" : page}`),
    ...NOT_FOR_CRAWLERS.map((prefix) => `Disallow: ${prefix}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

const xmlText = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function sitemapXml(publicUrl: string): string {
  const urls = PUBLIC_PAGES.map((page) => `  <url><loc>${xmlText(`${publicUrl}${page}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/**
 * Serves the built single-page app and answers every other GET that is not an API call with index.html, so
 * client-side routes survive a reload. Unknown /api paths get a JSON 404. Text files go out as the build's brotli or
 * gzip copy when the browser takes one (apps/web/scripts/precompress.mjs); hashed assets are cached for a year,
 * the rest revalidated on every use. /robots.txt and /sitemap.xml are written from PUBLIC_URL.
 */
export async function registerWebApp(app: FastifyInstance, dist: string): Promise<void> {
  const hasBuild = existsSync(path.join(dist, "index.html"));
  const robots = robotsTxt(app.publicUrl);
  const sitemap = sitemapXml(app.publicUrl);
  const crawlerFile = { config: { access: "public" }, schema: { hide: true } } as const;
  app.get("/robots.txt", crawlerFile, (_req, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600").send(robots),
  );
  app.get("/sitemap.xml", crawlerFile, (_req, reply) =>
    reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600").send(sitemap),
  );

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The plugin's own header ("public, max-age=0") would replace the one set below.
      cacheControl: false,
      // The compressed copies are sent in place of their file, not asked for by name.
      allowedPath: (pathname) => !/\.(?:br|gz)$/.test(pathname),
      setHeaders: (res, file) => {
        const relative = path.relative(dist, file);
        const hashed = relative.startsWith(`assets${path.sep}`);
        res.setHeader("cache-control", hashed ? HASHED_ASSETS : REVALIDATE);
        if (COMPRESSIBLE.test(file.replace(/\.(?:br|gz)$/, ""))) res.setHeader("vary", "accept-encoding");
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split("?")[0] ?? "";
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      throw new AppError("NOT_FOUND", `There is no API endpoint ${req.method} ${pathname}`);
    }
    // A script of an older build (a tab open across a deploy) is missing, not a page: the app's error screen offers a
    // reload, which index.html served as JavaScript would not.
    if (pathname.startsWith("/assets/")) throw new AppError("NOT_FOUND", "Not found");
    if ((req.method === "GET" || req.method === "HEAD") && hasBuild) {
      return reply.sendFile("index.html");
    }
    throw new AppError(
      "NOT_FOUND",
      hasBuild ? "Not found" : "The web app is not built: run npm run build (npm start does it for you).",
    );
  });
}
