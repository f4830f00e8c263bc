import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedEncoding } from "../../src/platform/encoding.ts";
import { createTestApp, type TestApp } from "../helpers.ts";

// A small build of the web app, made the way `npm run build -w @cove/web` makes one: Vite's hashed files under
// assets/, then the precompression script writes their .br and .gz copies.
const dist = mkdtempSync(path.join(tmpdir(), "cove-web-dist-"));
const script = `export function greet(name){return "Hello, "+name+"!"}\n${"console.info(greet('Cove'));\n".repeat(200)}`;
const INDEX = `<!doctype html><html lang="en"><head><title>Cove</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${"<!-- padding -->".repeat(80)}</body></html>`;
const precompress = path.resolve(import.meta.dirname, "../../../web/scripts/precompress.mjs");

let t: TestApp;

beforeAll(async () => {
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), INDEX);
  writeFileSync(path.join(dist, "assets/index-Ab12Cd34.js"), script);
  writeFileSync(path.join(dist, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  execFileSync(process.execPath, [precompress, dist]);
  t = await createTestApp({ webDist: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("the web app's files", () => {
  const asset = "/assets/index-Ab12Cd34.js";

  it("sends a hashed script as brotli to a browser that takes it, cached for a year", async () => {
    const res = await get(asset, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^(?:text|application)\/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.byteLength).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it("sends gzip where brotli is not taken, and the plain file where nothing is", async () => {
    const gz = await get(asset, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const refused = await get(asset, { "accept-encoding": "br;q=0, gzip" });
    expect(refused.headers["content-encoding"]).toBe("gzip");

    const plain = await get(asset);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("never lets a browser keep index.html: a new build's scripts are found at once", async () => {
    for (const url of ["/", "/dashboard", "/tickets/123?status=open", "/index.html"]) {
      const res = await get(url, { "accept-encoding": "br, gzip" });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
    const favicon = await get("/favicon.svg");
    expect(favicon.headers["cache-control"]).toBe("no-cache");
  });

  it("answers 404 for a script that is not in the build, rather than the page", async () => {
    const res = await get("/assets/index-OldBuild.js");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
    // The compressed copies stand in for their file; they are not files of their own.
    expect((await get(`${asset}.br`)).statusCode).toBe(404);
  });
});

describe("robots.txt and the sitemap", () => {
  it("lets crawlers read the public pages and keeps them out of the app, its links and the API", async () => {
    const res = await get("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = res.body.split("\n");
    expect(lines).toContain("User-agent: *");
    for (const page of ["/$", "/about", "/terms", "/privacy", "/demo", "/ai-test"])
      expect(lines).toContain(`Allow: ${page}`);
    for (const prefix of [
      "/api/",
      "/dashboard",
      "/tickets",
      "/settings",
      "/accept-invite",
      "/reset-password",
      "/portal/",
    ]) {
      expect(lines).toContain(`Disallow: ${prefix}`);
    }
    // Nothing public is disallowed by a prefix of it.
    const disallowed = lines.filter((l) => l.startsWith("Disallow: ")).map((l) => l.slice(10));
    for (const page of ["/about", "/terms", "/privacy", "/demo", "/ai-test", "/help/acme"]) {
      expect(
        disallowed.some((prefix) => page.startsWith(prefix)),
        page,
      ).toBe(false);
    }
    expect(lines).toContain("Sitemap: http://cove.test/sitemap.xml");
  });

  it("lists the public pages at PUBLIC_URL, and no page of the app", async () => {
    const res = await get("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/xml/);
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locs = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      "http://cove.test/",
      "http://cove.test/about",
      "http://cove.test/terms",
      "http://cove.test/privacy",
      "http://cove.test/demo",
      "http://cove.test/ai-test",
    ]);
  });
});

describe("Accept-Encoding", () => {
  it("takes the best coding the browser accepts, honouring q-values", () => {
    expect(acceptedEncoding("gzip, deflate, br")).toBe("br");
    expect(acceptedEncoding("gzip")).toBe("gzip");
    expect(acceptedEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(acceptedEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(acceptedEncoding("*")).toBe("br");
    expect(acceptedEncoding("*;q=0, gzip")).toBe("gzip");
    expect(acceptedEncoding("identity")).toBeNull();
    expect(acceptedEncoding("")).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
