import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { HelpArticleAnswer, HelpCenterAnswer, HelpSearchAnswer } from "@cove/contract/kb.ts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { kbArticles } from "../../src/db/schema/kb.ts";
import { seedDemo } from "../../src/db/seed.ts";
import { loadDemoArticles, parseDemoArticle } from "../../src/db/seed-kb.ts";
import type { Database } from "../../src/platform/db.ts";
import { embeddedTestDatabase } from "../helpers.ts";

// The demo is seeded into an empty database only, so this file always uses its own in-memory one.
let database: Database;
let app: FastifyInstance;
beforeAll(async () => {
  database = await embeddedTestDatabase();
  expect(await seedDemo(database.db)).toBe(true);
  app = await buildApp({
    database,
    // Nothing here sends mail.
    mail: {
      smtpUrl: undefined,
      from: "Cove <no-reply@cove.test>",
      outboxDir: path.join(tmpdir(), "cove-kb-seed-outbox"),
    },
    publicUrl: "http://cove.test",
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = async <T>(url: string) => {
  const res = await app.inject({ method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const topResult = async (q: string) =>
  (await get<HelpSearchAnswer>(`/api/public/acme/kb/search?q=${encodeURIComponent(q)}`)).results[0]?.title;

describe("the demo organization's help center", () => {
  it("has about 20 published articles in the shop's categories", async () => {
    const center = await get<HelpCenterAnswer>("/api/public/acme/kb");
    expect(center.organization).toEqual({ name: "Acme Outdoor Co.", slug: "acme" });
    const articles = center.categories.flatMap((c) => c.articles);
    expect(articles.length).toBeGreaterThanOrEqual(20);
    expect(center.uncategorized).toEqual([]);
    expect(center.categories.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "Account",
        "Billing & Payments",
        "Shipping & Delivery",
        "Returns & Exchanges",
        "Troubleshooting",
        "Product Care",
      ]),
    );
    expect(new Set(articles.map((a) => a.slug)).size).toBe(articles.length);
  });

  it("gives every published article 3 to 6 alternative phrasings and a real body", async () => {
    const rows = await database.db
      .select({ title: kbArticles.title, questions: kbArticles.questions, body: kbArticles.body })
      .from(kbArticles)
      .where(eq(kbArticles.status, "published"));
    for (const row of rows) {
      expect(row.questions.length, row.title).toBeGreaterThanOrEqual(3);
      expect(row.questions.length, row.title).toBeLessThanOrEqual(6);
      expect(row.body.length, row.title).toBeGreaterThan(300);
    }
  });

  it("answers the demo page's quick questions with the article written for each", async () => {
    expect(await topResult("How do I return an item?")).toBe("How do I return an item?");
    expect(await topResult("Where is my order?")).toBe("Where is my order? Tracking your package");
    expect(await topResult("How do I reset my password?")).toBe("How do I reset my password?");
    expect(await topResult("Do you ship internationally?")).toBe("Do you ship internationally?");
  });

  it("states its policies concretely in those articles", async () => {
    const body = async (slug: string) =>
      (await get<HelpArticleAnswer>(`/api/public/acme/kb/articles/${slug}`)).article.body;
    expect(await body("how-do-i-return-an-item")).toContain("30 days of delivery");
    expect(await body("do-you-ship-internationally")).toMatch(/Canada.*7-14 business days/s);
    expect(await body("how-do-i-reset-my-password")).toContain("Forgot your password?");
    expect(await body("where-is-my-order-tracking-your-package")).toContain("Track package");
  });

  it("links its articles to each other by their help center addresses", async () => {
    const rows = await database.db.select({ body: kbArticles.body }).from(kbArticles);
    const links = rows.flatMap((r) =>
      [...r.body.matchAll(/\]\((\/help\/acme\/articles\/[a-z0-9-]+)\)/g)].map((m) => m[1]),
    );
    expect(links.length).toBeGreaterThanOrEqual(10);
    for (const link of new Set(links)) {
      const res = await app.inject({ method: "GET", url: `/api/public/acme/kb/articles/${link?.split("/").pop()}` });
      expect(res.statusCode, link).toBe(200);
    }
  });

  it("keeps its draft out of the help center", async () => {
    expect(await topResult("holiday shipping deadlines")).not.toBe("Holiday shipping deadlines");
    const res = await app.inject({ method: "GET", url: "/api/public/acme/kb/articles/holiday-shipping-deadlines" });
    expect(res.statusCode).toBe(404);
  });
});

describe("the demo articles are Markdown files (src/db/demo-kb)", () => {
  it("reads every file: 26 published articles and a draft, each with its questions and counts", () => {
    const articles = loadDemoArticles();
    expect(articles).toHaveLength(27);
    expect(articles.filter((a) => a.status === "draft").map((a) => a.title)).toEqual(["Holiday shipping deadlines"]);
    expect(articles[0]).toMatchObject({ title: "How do I reset my password?", category: "Account", views: 412 });
    expect(articles.every((a) => a.questions.length > 0 && a.body.length > 50)).toBe(true);
  });

  it("seeds one article per file, each as its file says", async () => {
    const files = readdirSync(path.join(import.meta.dirname, "../../src/db/demo-kb")).filter((f) => f.endsWith(".md"));
    const articles = loadDemoArticles();
    expect(articles).toHaveLength(files.length);
    const rows = await database.db
      .select({ title: kbArticles.title, questions: kbArticles.questions, status: kbArticles.status })
      .from(kbArticles);
    expect(rows.map((r) => r.title).sort()).toEqual(articles.map((a) => a.title).sort());
    for (const article of articles) {
      const row = rows.find((r) => r.title === article.title);
      // (Views are left out: reading an article in the tests above counts as a view.)
      const status = article.status ?? "published";
      expect(row, article.title).toEqual({ title: article.title, questions: article.questions, status });
    }
  });

  it("stops at a malformed file and names it", () => {
    const head =
      "---\ntitle: Fine\ncategory: Account\nviews: 1\nhelpful: 1\nnot_helpful: 0\nquestions:\n  - Q?\n---\n\n";
    expect(parseDemoArticle("ok.md", `${head}Body.`)).toMatchObject({
      title: "Fine",
      questions: ["Q?"],
      body: "Body.",
    });
    expect(() => parseDemoArticle("bare.md", "Just a body")).toThrow("demo-kb/bare.md: no front matter");
    expect(() => parseDemoArticle("n.md", head.replace("views: 1", "views: many"))).toThrow(
      "demo-kb/n.md: views must be a whole number",
    );
    expect(() => parseDemoArticle("c.md", head.replace("Account", "Gardening"))).toThrow(
      "demo-kb/c.md: unknown category",
    );
  });
});
