/**
 * Slugs: one slugify for organizations, articles and categories, readable in every script, and creation that never
 * fails on a clash however many writers share a title at once.
 */
import type { AuthAnswer } from "@cove/contract/auth.ts";
import type { Article, Category } from "@cove/contract/kb.ts";
import { slugify } from "@cove/contract/slugs.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, newAddress, registerOrg, registration, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const article = (s: string) => slugify(s, { fallback: "article", max: 80 });

describe("slugify", () => {
  it("keeps the letters and digits of every script, lower-cased, words joined by dashes", () => {
    expect(article("Returns & Exchanges")).toBe("returns-and-exchanges");
    expect(article("  How do I reset my password?  ")).toBe("how-do-i-reset-my-password");
    expect(article("Crème brûlée, façade, Ærø, Straße")).toBe("creme-brulee-facade-ærø-straße");
    expect(article("Как вернуть товар?")).toBe("как-вернуть-товар");
    expect(article("Мой заказ, ещё не пришёл")).toBe("мой-заказ-ещё-не-пришёл");
    expect(article("Ελληνικά άρθρα")).toBe("ελληνικα-αρθρα");
    expect(article("返品と交換について")).toBe("返品と交換について");
    expect(article("배송 조회")).toBe("배송-조회");
    expect(article("नमस्ते दुनिया")).toBe("नमस्ते-दुनिया");
    expect(article("كيف أعيد المنتج")).toBe("كيف-أعيد-المنتج");
    expect(article("Order #123 (2024)")).toBe("order-123-2024");
  });

  it("drops what is not a letter or digit: symbols, emoji, invisible and direction characters", () => {
    expect(article("🚀🔥 !!! ???")).toBe("article");
    expect(article("zero\u200Bwidth\u202Eright-to-left\uFEFF")).toBe("zero-width-right-to-left");
    expect(article("Ṱ̺̺̕o͞ ̷i̲̬͇̪͙n̝̗͕v̟̜̘̦͟o̶̙̰̠kè͚̮̺̪̹̱̤")).toBe("to-invoke");
    expect(article("   ")).toBe("article");
  });

  it("cuts at a whole character within the limit, never leaving a trailing dash", () => {
    expect(slugify("a".repeat(100), { fallback: "x", max: 40 })).toBe("a".repeat(40));
    expect(slugify(`${"b".repeat(39)} c`, { fallback: "x", max: 40 })).toBe("b".repeat(39));
    expect(Array.from(slugify("字".repeat(60), { fallback: "x", max: 40 }))).toHaveLength(40);
    expect(slugify("𝒜".repeat(60), { fallback: "x", max: 40 })).toBe("a".repeat(40));
    expect(slugify("😀字".repeat(60), { fallback: "x", max: 40 })).toBe(Array(20).fill("字").join("-"));
  });
});

describe("organization slugs", () => {
  it("are meaningful for names in other scripts, and reach the help center, the portal and the chat widget", async () => {
    const name = `Книжный магазин ${Date.now().toString(36)}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: registration({ organizationName: name }),
      remoteAddress: newAddress(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { user } = res.json() as AuthAnswer;
    expect(user.organizationSlug).toBe(slugify(name, { fallback: "org", max: 40 }));
    expect(user.organizationSlug.startsWith("книжный-магазин-")).toBe(true);
    const center = await t.app.inject({
      method: "GET",
      url: `/api/public/${encodeURIComponent(user.organizationSlug)}/kb`,
    });
    expect(center.statusCode, center.body).toBe(200);
    // Every public address finds it: the portal, the brand the portal and widget draw, the widget's look.
    for (const page of ["portal", "branding", "chat/widget"]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/public/${encodeURIComponent(user.organizationSlug)}/${page}`,
      });
      expect(res.statusCode, `${page}: ${res.body}`).toBe(200);
      expect(res.body).toContain("Книжный магазин");
    }
  });
});

describe("article and category slugs under concurrent creation", () => {
  let org: AuthAnswer;
  beforeAll(async () => {
    org = await registerOrg(t.app);
  });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: "POST", url, headers: bearer(org.token), payload });

  /** Runs the calls with at most `inFlight` at once, answering in call order. */
  async function pool<T>(calls: (() => Promise<T>)[], inFlight: number): Promise<T[]> {
    const out: T[] = new Array(calls.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < calls.length) {
          const i = next++;
          out[i] = await (calls[i] as () => Promise<T>)();
        }
      }),
    );
    return out;
  }

  it("creates every article when 40 with titles of one slug arrive 8 at a time, each with its own slug", async () => {
    const titles = Array.from({ length: 40 }, (_, i) => `${"Возврат товара".padEnd(14 + (i % 3), "!")}`);
    const answers = await pool(
      titles.map((title) => () => post("/api/kb/articles", { title, body: "Within 30 days.", status: "published" })),
      8,
    );
    const failed = answers.filter((r) => r.statusCode !== 201).map((r) => `${r.statusCode} ${r.body.slice(0, 200)}`);
    expect(failed).toEqual([]);
    const slugs = answers.map((r) => (r.json().article as Article).slug);
    expect(new Set(slugs).size).toBe(40);
    expect(slugs).toContain("возврат-товара");
    expect(slugs.every((s) => /^возврат-товара(-\d+)?$/.test(s))).toBe(true);
    // Each reaches its page in the help center.
    const page = await t.app.inject({
      method: "GET",
      url: `/api/public/${encodeURIComponent(org.user.organizationSlug)}/kb/articles/${encodeURIComponent(slugs[7] as string)}`,
    });
    expect(page.statusCode, page.body).toBe(200);
  });

  it("reaches an article whose slug is as long as slugs get, in a script that takes 9 characters each in a URL", async () => {
    const title = "返品と交換についてのご案内".repeat(10);
    const res = await post("/api/kb/articles", { title, body: "Within 30 days.", status: "published" });
    expect(res.statusCode, res.body).toBe(201);
    const { slug } = res.json().article as Article;
    expect(Array.from(slug)).toHaveLength(80);
    const url = `/api/public/${encodeURIComponent(org.user.organizationSlug)}/kb/articles/${encodeURIComponent(slug)}`;
    expect(url.length).toBeGreaterThan(720);
    const page = await t.app.inject({ method: "GET", url });
    expect(page.statusCode, page.body).toBe(200);
  });

  it("creates every article whose title has no letter at all, and every category of one slug", async () => {
    const emoji = await pool(
      Array.from({ length: 24 }, (_, i) => () => post("/api/kb/articles", { title: `🚀 ${"?".repeat(i + 1)}` })),
      8,
    );
    expect(emoji.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);
    expect(new Set(emoji.map((r) => (r.json().article as Article).slug)).size).toBe(24);

    const categories = await pool(
      Array.from({ length: 16 }, (_, i) => () => post("/api/kb/categories", { name: `Доставка ${"!".repeat(i + 1)}` })),
      8,
    );
    expect(categories.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);
    const slugs = categories.map((r) => (r.json().category as Category).slug);
    expect(new Set(slugs).size).toBe(16);
    expect(slugs).toContain("доставка");
  });
});
