import type { Article, ArticleListAnswer, Category, HelpSearchAnswer } from "@cove/contract/kb.ts";
import { describe, expect, it } from "vitest";
import { client, fitLength, naughtySample, orgForFile, registerOrg, testAppForFile } from "../helpers.ts";

// A sample end to end; all 515 go through the contract in platform/naughty-schemas.test.ts.
const naughty = naughtySample();

const t = testAppForFile();
const org = orgForFile(t);

const call = client(() => t.app);
const show = (s: string) => JSON.stringify(s).slice(0, 80);

let visitor = 0;
/** A new visitor address per public request, so the per-address limits of the help center stay out of the way. */
const nextAddress = () => {
  visitor++;
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
};

// Hundreds of writes and reads per test: room for a busy 2-core machine.
const HEAVY = { timeout: 180_000 };

/** The articles this file wrote in its organization (ids, and the published ones' slugs): a search finds only these. */
const ours = new Set<string>();
const ourSlugs = new Set<string>();

describe("the knowledge base takes naughty strings as typed", () => {
  it("as title and body: stored and read back unchanged (the title trimmed), or a clear 400", HEAVY, async () => {
    for (const s of naughty) {
      const res = await call(org, "POST", "/api/kb/articles", {
        title: fitLength(s, 200),
        body: s,
        status: "published",
      });
      expect(res.statusCode, show(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        const created = res.json().article as Article;
        ours.add(created.id);
        const read = (await call(org, "GET", `/api/kb/articles/${created.id}`)).json().article as Article;
        ourSlugs.add(read.slug);
        expect(read.title, show(s)).toBe(fitLength(s, 200).trim());
        expect(read.body, show(s)).toBe(s);
        // Letters and digits of any script (with their marks) and dashes: nothing invisible, no punctuation.
        expect(read.slug, show(s)).toMatch(/^[\p{L}\p{N}\p{M}-]+$/u);
        // The help center shows it as stored.
        const pub = await t.app.inject({
          method: "GET",
          url: `/api/public/${org.user.organizationSlug}/kb/articles/${encodeURIComponent(read.slug)}`,
          remoteAddress: nextAddress(),
        });
        expect(pub.statusCode, show(s)).toBe(200);
        expect(pub.json().article.body, show(s)).toBe(s);
      } else {
        expect(res.statusCode, show(s)).toBe(400);
        // Only a blank title or a body with nothing to publish is refused.
        expect(s.trim() === "", show(s)).toBe(true);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
  });

  it("as alternative phrasings: kept trimmed, blanks and repeats dropped", async () => {
    for (let i = 0; i < naughty.length; i += 20) {
      const batch = naughty.slice(i, i + 20).map((s) => fitLength(s, 300));
      const res = await call(org, "POST", "/api/kb/articles", { title: `Phrasings ${i}`, questions: batch });
      expect(res.statusCode, res.body).toBe(201);
      ours.add(res.json().article.id);
      const seen = new Set<string>();
      const expected = batch
        .map((s) => s.trim())
        .filter((s) => {
          if (s === "" || seen.has(s.toLowerCase())) return false;
          seen.add(s.toLowerCase());
          return true;
        });
      const read = (await call(org, "GET", `/api/kb/articles/${res.json().article.id}`)).json().article as Article;
      expect(read.questions).toEqual(expected);
    }
  });

  it("as category names: stored unchanged, or a clear 400 or 409", HEAVY, async () => {
    const created: string[] = [];
    for (const s of naughty) {
      const name = fitLength(s, 60);
      const res = await call(org, "POST", "/api/kb/categories", { name });
      expect(res.statusCode, show(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        const category = res.json().category as Category;
        expect(category.name, show(s)).toBe(name.trim());
        expect(category.slug, show(s)).toMatch(/^[\p{L}\p{N}\p{M}-]+$/u);
        created.push(category.name);
      } else if (res.statusCode === 409) {
        // Only a name already taken, ignoring case.
        expect(res.json().code).toBe("CONFLICT");
      } else {
        expect(res.statusCode, show(s)).toBe(400);
        expect(name.trim(), show(s)).toBe("");
      }
    }
    const listed = (await call(org, "GET", "/api/kb/categories")).json().categories as Category[];
    expect(listed.map((c) => c.name).sort()).toEqual([...created].sort());
    expect(created.length).toBeGreaterThan(naughty.length * 0.8);
  });

  it("as searches, staff and public: the organization's own articles, or a clear 400", HEAVY, async () => {
    // Another organization publishes an article of each title too: a search never shows one of them.
    const other = await registerOrg(t.app);
    for (const s of naughty) {
      const title = `${fitLength(s, 150)} elsewhere`;
      const res = await call(other, "POST", "/api/kb/articles", { title, body: s, status: "published" });
      expect([201, 400], show(s)).toContain(res.statusCode);
    }
    let staffFound = 0;
    let publicFound = 0;
    for (const s of naughty) {
      const q = encodeURIComponent(fitLength(s, 200));
      const staff = await call(org, "GET", `/api/kb/articles?search=${q}`);
      if (staff.statusCode === 200) {
        const { articles } = staff.json() as ArticleListAnswer;
        for (const article of articles) expect(ours.has(article.id), show(s)).toBe(true);
        if (articles.length > 0) staffFound++;
      } else expect([staff.statusCode, staff.json().error], show(s)).toEqual([400, expect.any(String)]);
      const pub = await t.app.inject({
        method: "GET",
        url: `/api/public/${org.user.organizationSlug}/kb/search?q=${q}`,
        remoteAddress: nextAddress(),
      });
      if (pub.statusCode === 200) {
        const { results } = pub.json() as HelpSearchAnswer;
        for (const result of results) expect(ourSlugs.has(result.slug), show(s)).toBe(true);
        if (results.length > 0) publicFound++;
      } else expect([pub.statusCode, pub.json().error], show(s)).toEqual([400, expect.any(String)]);
    }
    // Most strings hold a word some title of this organization holds (the titles are the same strings): found.
    expect(staffFound).toBeGreaterThan(naughty.length / 4);
    expect(publicFound).toBeGreaterThan(naughty.length / 4);
  });

  it("as help center addresses: a 404, or the organization's own article of that address", async () => {
    for (const s of naughty.slice(0, 200)) {
      const slug = fitLength(s, 150);
      const res = await t.app.inject({
        method: "GET",
        url: `/api/public/${org.user.organizationSlug}/kb/articles/${encodeURIComponent(slug)}`,
        remoteAddress: nextAddress(),
      });
      if (res.statusCode === 200) {
        // A string that is itself an article's address ("undefined", "null", a word): that article.
        expect(ourSlugs.has(slug), show(s)).toBe(true);
        expect(res.json().article.slug, show(s)).toBe(slug);
      } else
        expect(res.json(), show(s)).toEqual({
          error: expect.any(String),
          code: "NOT_FOUND",
          requestId: expect.any(String),
        });
    }
  });
});
