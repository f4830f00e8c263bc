import type { Article, ArticleListAnswer, Category } from "@cove/contract/kb.ts";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { kbArticles } from "../../src/db/schema/kb.ts";
import {
  addMember,
  client,
  createArticle,
  errorAnswer,
  orgForFile,
  registerOrg,
  testAppForFile,
  unique,
} from "../helpers.ts";

type Session = { token: string; user: { id: string; organizationId: string; organizationSlug: string } };

const t = testAppForFile();
const a = orgForFile(t);
const b = orgForFile(t);

const call = client(() => t.app);

const create = (who: Session, body: Record<string, unknown> = {}) => createArticle(t.app, who, body);

async function category(who: Session, name: string): Promise<Category> {
  const res = await call(who, "POST", "/api/kb/categories", { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().category as Category;
}

async function list(who: Session, query = ""): Promise<ArticleListAnswer> {
  const res = await call(who, "GET", `/api/kb/articles${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ArticleListAnswer;
}

/** An agent (not an admin) of who's organization, signed in. */
async function agentOf(who: Session): Promise<Session> {
  const agent = await addMember(t.database, who.user.organizationId);
  return { token: agent.token, user: { ...who.user, id: agent.id } };
}

describe("POST /api/kb/articles", () => {
  it("writes a draft with a slug from its title, its author, and no counts yet", async () => {
    const org = await registerOrg(t.app);
    const article = await create(org, {
      title: "Returns & Exchanges: how it works",
      body: "## Start a return\n\nOpen **Orders**.",
      questions: ["How do I return an item?", "  ", "how do i return an item?", "Can I send it back?"],
    });
    expect(article).toMatchObject({
      title: "Returns & Exchanges: how it works",
      slug: "returns-and-exchanges-how-it-works",
      status: "draft",
      body: "## Start a return\n\nOpen **Orders**.",
      questions: ["How do I return an item?", "Can I send it back?"],
      category_id: null,
      category_name: null,
      view_count: 0,
      helpful_count: 0,
      not_helpful_count: 0,
      author_name: "Ada Lovelace",
      published_at: null,
    });
  });

  it("publishes at once on request, in a category", async () => {
    const shipping = await category(a, `Shipping ${unique()}`);
    const article = await create(a, { status: "published", category_id: shipping.id });
    expect(article.status).toBe("published");
    expect(article.published_at).toEqual(expect.any(String));
    expect(article).toMatchObject({ category_id: shipping.id, category_name: shipping.name });
  });

  it("gives every article of an organization its own slug, even when created at the same time", async () => {
    const org = await registerOrg(t.app);
    const first = await create(org, { title: "Track your order" });
    const more = await Promise.all(Array.from({ length: 6 }, () => create(org, { title: "Track your order!" })));
    const slugs = [first, ...more].map((x) => x.slug).sort();
    expect(new Set(slugs).size).toBe(7);
    expect(first.slug).toBe("track-your-order");
    expect(slugs).toContain("track-your-order-2");
    expect(slugs).toContain("track-your-order-7");
    // Another organization has its own addresses.
    expect((await create(b, { title: "Track your order" })).slug).not.toMatch(/-\d+$/);
    // A title with no Latin letters gets an address in its own letters.
    expect((await create(org, { title: "注文を追跡する" })).slug).toBe("注文を追跡する");
  });

  it("agents write articles as admins do", async () => {
    const agent = await agentOf(a);
    const article = await create(agent, { title: `Agent article ${unique()}` });
    expect(article.author_name).toBe("Marco Alvarez");
  });

  it("requires a title, and a body before publishing, with clear messages", async () => {
    const noTitle = await call(a, "POST", "/api/kb/articles", { body: "x" });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().error).toBe("Title is required");
    const empty = await call(a, "POST", "/api/kb/articles", { title: "Empty", body: " \n ", status: "published" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: "BAD_REQUEST", error: "Write the article before publishing it." });
    const badStatus = await call(a, "POST", "/api/kb/articles", { title: "X", status: "live" });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().error).toBe("Status must be one of draft, published");
    const tooMany = await call(a, "POST", "/api/kb/articles", {
      title: "X",
      questions: Array.from({ length: 21 }, (_, i) => `q${i}`),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe("An article can have at most 20 alternative phrasings");
    const longBody = await call(a, "POST", "/api/kb/articles", { title: "X", body: "x".repeat(100_001) });
    expect(longBody.statusCode).toBe(400);
  });

  it("answers 404 for another organization's category and writes nothing", async () => {
    const theirs = await category(b, `Billing ${unique()}`);
    const title = `Sneaky ${unique()}`;
    const res = await call(a, "POST", "/api/kb/articles", { title, category_id: theirs.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND", error: "Category not found" });
    expect((await list(a, `?search=${encodeURIComponent(title)}`)).articles).toEqual([]);
  });

  it("needs a signed-in user", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/kb/articles", payload: { title: "x" } });
    expect(res.statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/kb/articles" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/kb/categories" })).statusCode).toBe(401);
  });
});

describe("GET /api/kb/articles", () => {
  let org: Session;
  let gear: Category;
  beforeAll(async () => {
    org = await registerOrg(t.app);
    gear = await category(org, "Product Care");
    for (let i = 0; i < 23; i++) {
      await create(org, {
        title: `Care guide ${String(i).padStart(2, "0")}`,
        body: "Rinse with fresh water and let it dry in the shade.",
        status: i % 2 === 0 ? "published" : "draft",
        category_id: i < 5 ? gear.id : null,
      });
    }
    await create(org, {
      title: "Waterproofing your rain jacket",
      body: "Wash it, then tumble dry on low so the coating works again.",
      status: "published",
      questions: ["My jacket is wetting out", "Why does my coat let rain in?"],
    });
    await create(org, {
      title: "Cleaning a tent",
      body: "Never machine wash it. A waterproofing spray after cleaning helps the fly.",
      status: "published",
    });
  });

  it("pages 20 at a time, newest changes first, with pagination figures", async () => {
    const first = await list(org);
    expect(first.articles).toHaveLength(20);
    expect(first.pagination).toEqual({ page: 1, limit: 20, total: 25, pages: 2, next_cursor: expect.any(String) });
    expect(first.articles[0]?.title).toBe("Cleaning a tent");
    const second = await list(org, "?page=2");
    expect(second.articles).toHaveLength(5);
    const ids = new Set([...first.articles, ...second.articles].map((x) => x.id));
    expect(ids.size).toBe(25);
  });

  it("filters by status and by category, alone and together", async () => {
    expect((await list(org, "?status=draft&limit=100")).pagination.total).toBe(11);
    expect((await list(org, "?status=published&limit=100")).pagination.total).toBe(14);
    const inGear = await list(org, `?category_id=${gear.id}`);
    expect(inGear.pagination.total).toBe(5);
    expect(inGear.articles.every((x) => x.category_name === "Product Care")).toBe(true);
    expect((await list(org, `?category_id=${gear.id}&status=published`)).pagination.total).toBe(3);
    expect((await list(org, "?category_id=none")).pagination.total).toBe(20);
  });

  it("searches title, body and alternative phrasings, best match first", async () => {
    const waterproof = await list(org, "?search=waterproofing");
    expect(waterproof.articles.map((x) => x.title)).toEqual(["Waterproofing your rain jacket", "Cleaning a tent"]);
    const phrasing = await list(org, `?search=${encodeURIComponent("coat let rain in")}`);
    expect(phrasing.articles[0]?.title).toBe("Waterproofing your rain jacket");
    // A question typed in full finds its answer even though not every word is in it.
    const question = await list(org, `?search=${encodeURIComponent("how do I clean my tent?")}`);
    expect(question.articles[0]?.title).toBe("Cleaning a tent");
    // The last word matches as a prefix, as it is being typed.
    expect((await list(org, "?search=waterpr")).articles.length).toBe(2);
  });

  it("lists only the articles holding every word when there are any, else those holding any word", async () => {
    const titles = async (q: string, more = "") =>
      (await list(org, `?search=${encodeURIComponent(q)}${more}`)).articles.map((x) => x.title);
    // Both mention waterproofing, only one also the tent.
    expect(await titles("tent waterproofing")).toEqual(["Cleaning a tent"]);
    // No article says kayak: the tent article still answers.
    expect(await titles("kayak tent")).toEqual(["Cleaning a tent"]);
    // Filters still apply to the fallback.
    expect(await titles("kayak tent", "&status=draft")).toEqual([]);
  });

  it("treats query syntax as plain text and finds nothing in punctuation", async () => {
    for (const s of ["'", "a & | !", ":*", "(((", "<->", "\\"]) {
      const res = await call(org, "GET", `/api/kb/articles?search=${encodeURIComponent(s)}`);
      expect(res.statusCode, s).toBe(200);
    }
    expect((await list(org, `?search=${encodeURIComponent("!!!")}`)).articles).toEqual([]);
  });

  it("never shows another organization's articles, in the list or in search", async () => {
    const secret = `zanzibar${unique()}`;
    await create(b, { title: `Secret ${secret}`, status: "published" });
    expect((await list(org, `?search=${secret}`)).articles).toEqual([]);
    expect((await list(a, `?search=${secret}`)).articles).toEqual([]);
    expect((await list(b, `?search=${secret}`)).articles).toHaveLength(1);
    const theirCategory = await category(b, `Theirs ${unique()}`);
    await create(b, { category_id: theirCategory.id });
    expect((await list(org, `?category_id=${theirCategory.id}`)).articles).toEqual([]);
  });

  it("rejects bad filters with a clear 400", async () => {
    const status = await call(org, "GET", "/api/kb/articles?status=archived");
    expect(status.statusCode).toBe(400);
    const cat = await call(org, "GET", "/api/kb/articles?category_id=shipping");
    expect(cat.statusCode).toBe(400);
    expect(cat.json().error).toBe("category_id must be a category id or none");
    expect((await call(org, "GET", "/api/kb/articles?limit=101")).statusCode).toBe(400);
  });
});

describe("GET /api/kb/articles/:id", () => {
  it("answers the article with its body and phrasings", async () => {
    const created = await create(a, { questions: ["Which wax?"] });
    const res = await call(a, "GET", `/api/kb/articles/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().article).toEqual(created);
  });

  it("answers 404 for a missing, malformed, or another organization's article", async () => {
    const theirs = await create(b);
    for (const id of [theirs.id, crypto.randomUUID(), "not-an-id", "1%27%20or%201=1"]) {
      const res = await call(a, "GET", `/api/kb/articles/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(errorAnswer("Article not found", "NOT_FOUND"));
    }
  });
});

describe("PUT /api/kb/articles/:id", () => {
  it("changes title, body, category and phrasings; the slug follows the title until first published", async () => {
    const care = await category(a, `Care ${unique()}`);
    const draft = await create(a, { title: "First title" });
    const renamed = (
      await call(a, "PUT", `/api/kb/articles/${draft.id}`, {
        title: "Second title",
        body: "New body",
        category_id: care.id,
        questions: ["New question?"],
      })
    ).json().article as Article;
    expect(renamed).toMatchObject({
      title: "Second title",
      slug: expect.stringMatching(/^second-title/),
      body: "New body",
      category_id: care.id,
      questions: ["New question?"],
      status: "draft",
    });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(draft.updated_at));

    const live = (await call(a, "PUT", `/api/kb/articles/${draft.id}`, { status: "published" })).json()
      .article as Article;
    expect(live.status).toBe("published");
    expect(live.published_at).toEqual(expect.any(String));

    const retitled = (await call(a, "PUT", `/api/kb/articles/${draft.id}`, { title: "Third title" })).json()
      .article as Article;
    expect(retitled.title).toBe("Third title");
    expect(retitled.slug).toBe(live.slug);

    const unpublished = (await call(a, "PUT", `/api/kb/articles/${draft.id}`, { status: "draft" })).json()
      .article as Article;
    expect(unpublished.status).toBe("draft");
    expect(unpublished.slug).toBe(live.slug);

    const uncategorized = (await call(a, "PUT", `/api/kb/articles/${draft.id}`, { category_id: null })).json()
      .article as Article;
    expect(uncategorized).toMatchObject({ category_id: null, category_name: null });
  });

  it("keeps a renamed draft's slug unique", async () => {
    const org = await registerOrg(t.app);
    await create(org, { title: "Gift cards" });
    const other = await create(org, { title: "Something else" });
    const renamed = (await call(org, "PUT", `/api/kb/articles/${other.id}`, { title: "Gift cards" })).json()
      .article as Article;
    expect(renamed.slug).toBe("gift-cards-2");
    // Saving it again under the same title keeps its own slug.
    const again = (await call(org, "PUT", `/api/kb/articles/${other.id}`, { title: "Gift Cards" })).json()
      .article as Article;
    expect(again.slug).toBe("gift-cards-2");
  });

  it("refuses to publish an empty article, an empty change, and another organization's category", async () => {
    const draft = await create(a, { body: "" });
    const publish = await call(a, "PUT", `/api/kb/articles/${draft.id}`, { status: "published" });
    expect(publish.statusCode).toBe(400);
    expect(publish.json().error).toBe("Write the article before publishing it.");
    const nothing = await call(a, "PUT", `/api/kb/articles/${draft.id}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error).toBe("Send at least one field to change");
    const theirs = await category(b, `Theirs ${unique()}`);
    const moved = await call(a, "PUT", `/api/kb/articles/${draft.id}`, { category_id: theirs.id });
    expect(moved.statusCode).toBe(404);
    expect(moved.json().error).toBe("Category not found");
  });

  it("answers 404 to another organization and changes nothing", async () => {
    const theirs = await create(b, { title: "Their article" });
    const res = await call(a, "PUT", `/api/kb/articles/${theirs.id}`, { title: "Hijacked", status: "published" });
    expect(res.statusCode).toBe(404);
    const [row] = await t.database.db
      .select({ title: kbArticles.title, status: kbArticles.status })
      .from(kbArticles)
      .where(eq(kbArticles.id, theirs.id));
    expect(row).toEqual({ title: "Their article", status: "draft" });
  });
});

describe("DELETE /api/kb/articles/:id", () => {
  it("deletes the article; it is then not found", async () => {
    const article = await create(a);
    const res = await call(a, "DELETE", `/api/kb/articles/${article.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Article deleted" });
    expect((await call(a, "GET", `/api/kb/articles/${article.id}`)).statusCode).toBe(404);
    expect((await call(a, "DELETE", `/api/kb/articles/${article.id}`)).statusCode).toBe(404);
  });

  it("answers 404 to another organization and deletes nothing", async () => {
    const theirs = await create(b);
    const res = await call(a, "DELETE", `/api/kb/articles/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect((await call(b, "GET", `/api/kb/articles/${theirs.id}`)).statusCode).toBe(200);
  });
});

describe("POST /api/kb/articles/:id/feedback", () => {
  it("counts helpful and not helpful votes", async () => {
    const article = await create(a, { status: "published" });
    const vote = (helpful: boolean) => call(a, "POST", `/api/kb/articles/${article.id}/feedback`, { helpful });
    expect((await vote(true)).json()).toEqual({ helpful_count: 1, not_helpful_count: 0 });
    await vote(true);
    expect((await vote(false)).json()).toEqual({ helpful_count: 2, not_helpful_count: 1 });
    const read = (await call(a, "GET", `/api/kb/articles/${article.id}`)).json().article as Article;
    expect(read).toMatchObject({ helpful_count: 2, not_helpful_count: 1 });
  });

  it("wants true or false, and answers 404 for another organization's article", async () => {
    const theirs = await create(b, { status: "published" });
    const bad = await call(b, "POST", `/api/kb/articles/${theirs.id}/feedback`, { helpful: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("helpful must be true or false");
    const res = await call(a, "POST", `/api/kb/articles/${theirs.id}/feedback`, { helpful: true });
    expect(res.statusCode).toBe(404);
    const read = (await call(b, "GET", `/api/kb/articles/${theirs.id}`)).json().article as Article;
    expect(read.helpful_count).toBe(0);
  });
});

describe("categories", () => {
  it("lists the organization's categories in order, with article counts", async () => {
    const org = await registerOrg(t.app);
    expect((await call(org, "GET", "/api/kb/categories")).json()).toEqual({ categories: [] });
    const billing = await category(org, "Billing");
    const shipping = await category(org, "Shipping & Delivery");
    expect(billing).toMatchObject({ name: "Billing", slug: "billing", position: 0, article_count: 0 });
    expect(shipping).toMatchObject({ slug: "shipping-and-delivery", position: 1 });
    await create(org, { category_id: shipping.id, status: "published" });
    await create(org, { category_id: shipping.id });
    const categories = (await call(org, "GET", "/api/kb/categories")).json().categories as Category[];
    expect(categories.map((c) => [c.name, c.article_count, c.published_count])).toEqual([
      ["Billing", 0, 0],
      ["Shipping & Delivery", 2, 1],
    ]);
  });

  it("names each category once, ignoring case, with a clear 409", async () => {
    const org = await registerOrg(t.app);
    await category(org, "Returns");
    const again = await call(org, "POST", "/api/kb/categories", { name: "  RETURNS " });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(errorAnswer('A category named "RETURNS" already exists.', "CONFLICT"));
    // Names that slug alike still get their own address.
    expect((await category(org, "Returns!")).slug).toBe("returns-2");
    // Another organization may use the same name.
    expect((await category(b, "Returns")).name).toBe("Returns");
    const blank = await call(org, "POST", "/api/kb/categories", { name: " " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe("Category name is required");
  });

  it("never shows another organization's categories", async () => {
    const name = `Private ${unique()}`;
    await category(b, name);
    const mine = (await call(a, "GET", "/api/kb/categories")).json().categories as Category[];
    expect(mine.map((c) => c.name)).not.toContain(name);
  });
});
