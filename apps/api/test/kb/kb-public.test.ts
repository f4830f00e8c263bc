import type { Article, Category, HelpArticleAnswer, HelpCenterAnswer, HelpSearchAnswer } from "@cove/contract/kb.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kbArticles, kbCategories } from "../../src/db/schema/kb.ts";
import { withVisitor } from "../../src/platform/tenancy.ts";
import { bearer, createTestApp, errorAnswer, registerOrg, type TestApp, unique } from "../helpers.ts";

let t: TestApp;
type Session = Awaited<ReturnType<typeof registerOrg>>;
let a: Session;
let b: Session;
/** A word only a's draft holds, and one only b's published article holds. */
const draftWord = `quokka${unique()}`;
const otherWord = `wombat${unique()}`;
let shipping: Category;
let care: Category;
let live: Article;
let draft: Article;
let loose: Article;

beforeAll(async () => {
  t = await createTestApp();
  a = await registerOrg(t.app, { organizationName: `Acme Trail ${unique()}` });
  b = await registerOrg(t.app);
  shipping = await category(a, "Shipping & Delivery");
  care = await category(a, "Product Care");
  await category(a, "Empty one");
  live = await create(a, {
    title: "Do you ship internationally?",
    body: "We ship to **Canada**, the UK and the EU.\n\nOrders arrive in 5-10 business days.",
    questions: ["Can I order from abroad?"],
    category_id: shipping.id,
    status: "published",
  });
  await create(a, {
    title: "Track your order",
    body: "Use the link in your shipping email.",
    category_id: shipping.id,
    status: "published",
  });
  draft = await create(a, {
    title: `Upcoming ${draftWord} policy`,
    body: `Not ready: ${draftWord}.`,
    category_id: care.id,
  });
  loose = await create(a, { title: "About us", body: "A small shop.", status: "published" });
  // The other organization has an article with the same address as a's.
  await create(b, { title: "Do you ship internationally?", body: `Only ${otherWord}s.`, status: "published" });
});
afterAll(() => t.close());

async function create(who: Session, body: Record<string, unknown>): Promise<Article> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/kb/articles",
    headers: bearer(who.token),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().article as Article;
}

async function category(who: Session, name: string): Promise<Category> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/kb/categories",
    headers: bearer(who.token),
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().category as Category;
}

const get = (url: string) => t.app.inject({ method: "GET", url });
const slugA = () => a.user.organizationSlug;

describe("GET /api/public/:org/kb", () => {
  it("answers the organization's name and its published articles by category, without signing in", async () => {
    const res = await get(`/api/public/${slugA()}/kb`);
    expect(res.statusCode).toBe(200);
    const center = res.json() as HelpCenterAnswer;
    expect(center.organization).toEqual({ name: a.user.organizationName, slug: slugA() });
    // Product Care holds only a draft and Empty one holds nothing: customers see neither.
    expect(center.categories.map((c) => c.name)).toEqual(["Shipping & Delivery"]);
    expect(center.categories[0]?.articles.map((x) => x.title)).toEqual([
      "Do you ship internationally?",
      "Track your order",
    ]);
    expect(center.uncategorized).toEqual([{ id: loose.id, title: "About us", slug: loose.slug }]);
    expect(res.body).not.toContain(draftWord);
    expect(res.body).not.toContain(otherWord);
  });

  it("answers 404 for an unknown organization or a malformed address", async () => {
    for (const slug of ["no-such-org-here", "UPPER", "a%20b", "-x", "x".repeat(150)]) {
      const res = await get(`/api/public/${slug}/kb`);
      expect(res.statusCode, slug).toBe(404);
      expect(res.json()).toEqual(errorAnswer("Help center not found", "NOT_FOUND"));
    }
  });
});

describe("GET /api/public/:org/kb/search", () => {
  const search = async (org: string, q: string) => {
    const res = await get(`/api/public/${org}/kb/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as HelpSearchAnswer).results;
  };

  it("finds published articles by title, body and alternative phrasings, with an excerpt", async () => {
    const results = await search(slugA(), "do you ship to canada");
    expect(results[0]).toEqual({
      id: live.id,
      title: "Do you ship internationally?",
      slug: live.slug,
      category_name: "Shipping & Delivery",
      excerpt: "We ship to Canada, the UK and the EU. Orders arrive in 5-10 business days.",
    });
    expect((await search(slugA(), "order from abroad"))[0]?.id).toBe(live.id);
  });

  it("never finds a draft or another organization's article", async () => {
    expect(await search(slugA(), draftWord)).toEqual([]);
    expect(await search(slugA(), otherWord)).toEqual([]);
    expect((await search(b.user.organizationSlug, otherWord)).map((r) => r.title)).toEqual([
      "Do you ship internationally?",
    ]);
  });

  it("answers nothing for an empty or unsearchable question, and 404 for an unknown organization", async () => {
    expect(await search(slugA(), "")).toEqual([]);
    expect(await search(slugA(), "?!")).toEqual([]);
    expect((await get("/api/public/no-such-org-here/kb/search?q=ship")).statusCode).toBe(404);
  });
});

describe("GET /api/public/:org/kb/articles/:slug", () => {
  it("answers a published article with its category and related articles, and counts the view", async () => {
    const res = await get(`/api/public/${slugA()}/kb/articles/${live.slug}`);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as HelpArticleAnswer;
    expect(answer.organization.slug).toBe(slugA());
    expect(answer.article).toMatchObject({
      id: live.id,
      title: live.title,
      body: live.body,
      category: { name: "Shipping & Delivery", slug: shipping.slug },
    });
    expect(answer.related.map((r) => r.title)).toEqual(["Track your order"]);
    // Nothing about the staff behind it.
    expect(res.body).not.toContain("Lovelace");
    await get(`/api/public/${slugA()}/kb/articles/${live.slug}`);
    const staff = await t.app.inject({ method: "GET", url: `/api/kb/articles/${live.id}`, headers: bearer(a.token) });
    expect((staff.json().article as Article).view_count).toBe(2);
  });

  it("answers 404 for a draft, an unknown slug, or an article of another organization", async () => {
    const draftRes = await get(`/api/public/${slugA()}/kb/articles/${draft.slug}`);
    expect(draftRes.statusCode).toBe(404);
    expect(draftRes.json()).toEqual(errorAnswer("Article not found", "NOT_FOUND"));
    const staff = await t.app.inject({ method: "GET", url: `/api/kb/articles/${draft.id}`, headers: bearer(a.token) });
    expect((staff.json().article as Article).view_count).toBe(0);
    expect((await get(`/api/public/${slugA()}/kb/articles/no-such-article`)).statusCode).toBe(404);
    // b's article with the same slug is b's: a's help center answers a's.
    const theirs = await get(`/api/public/${b.user.organizationSlug}/kb/articles/${live.slug}`);
    expect(theirs.json().article.body).toContain(otherWord);
    const mine = await get(`/api/public/${slugA()}/kb/articles/${live.slug}`);
    expect(mine.body).not.toContain(otherWord);
  });

  it("stops showing an article once it is unpublished", async () => {
    const temp = await create(a, { title: `Flash sale ${unique()}`, body: "Today only.", status: "published" });
    expect((await get(`/api/public/${slugA()}/kb/articles/${temp.slug}`)).statusCode).toBe(200);
    await t.app.inject({
      method: "PUT",
      url: `/api/kb/articles/${temp.id}`,
      headers: bearer(a.token),
      payload: { status: "draft" },
    });
    expect((await get(`/api/public/${slugA()}/kb/articles/${temp.slug}`)).statusCode).toBe(404);
  });
});

describe("POST /api/public/:org/kb/articles/:slug/feedback", () => {
  const vote = (org: string, slug: string, helpful: unknown, remoteAddress = "203.0.113.7") =>
    t.app.inject({
      method: "POST",
      url: `/api/public/${org}/kb/articles/${slug}/feedback`,
      payload: { helpful },
      remoteAddress,
    });

  it("counts a vote on a published article and thanks the visitor", async () => {
    const article = await create(a, { title: `Vote ${unique()}`, body: "b", status: "published" });
    const yes = await vote(slugA(), article.slug, true);
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toEqual({ message: "Thanks for your feedback!" });
    await vote(slugA(), article.slug, false);
    await vote(slugA(), article.slug, true);
    const staff = await t.app.inject({
      method: "GET",
      url: `/api/kb/articles/${article.id}`,
      headers: bearer(a.token),
    });
    expect(staff.json().article).toMatchObject({ helpful_count: 2, not_helpful_count: 1 });
  });

  it("answers 404 for a draft and another organization's article, 400 for a bad vote", async () => {
    expect((await vote(slugA(), draft.slug, true)).statusCode).toBe(404);
    const otherOrgOnly = await create(b, { title: `Only theirs ${unique()}`, body: "b", status: "published" });
    expect((await vote(slugA(), otherOrgOnly.slug, true)).statusCode).toBe(404);
    expect((await vote(slugA(), live.slug, "very")).statusCode).toBe(400);
  });

  it("limits votes per address", async () => {
    const address = "198.51.100.23";
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await vote(slugA(), live.slug, true, address)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const limited = await vote(slugA(), live.slug, true, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "RATE_LIMITED", error: expect.stringMatching(/^Too many requests/) });
    // Another address is not held up.
    expect((await vote(slugA(), live.slug, true, "198.51.100.24")).statusCode).toBe(200);
  });

  it("limits article views per address", async () => {
    const address = "198.51.100.99";
    const read = () =>
      t.app.inject({ method: "GET", url: `/api/public/${slugA()}/kb/articles/${loose.slug}`, remoteAddress: address });
    for (let i = 0; i < 60; i++) expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(429);
  });
});

describe("tenancy of the public paths", () => {
  it("run under row-level security: a query without its own filter still sees one organization", async () => {
    const seen = await withVisitor(t.database.db, a.user.organizationId, async (v) => ({
      articles: await v.db.select({ org: kbArticles.organizationId }).from(kbArticles),
      categories: await v.db.select({ org: kbCategories.organizationId }).from(kbCategories),
    }));
    expect(seen.articles.length).toBeGreaterThan(3);
    expect(new Set(seen.articles.map((r) => r.org))).toEqual(new Set([a.user.organizationId]));
    expect(new Set(seen.categories.map((r) => r.org))).toEqual(new Set([a.user.organizationId]));
  });
});
