import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { helpArticlePath } from "@cove/contract/kb.ts";
import { kbSlug } from "../modules/kb/index.ts";
import type { Tx } from "../platform/db.ts";
import { kbArticles, kbCategories } from "./schema/kb.ts";

/**
 * The demo shop's help center, written for Acme Outdoor Co., one Markdown file per article in demo-kb/ (a front matter
 * of title, category, optional status, counts and the questions it answers; then the body). The policies are one set
 * and every article agrees with it (and with the demo tickets): the AI assistant answers the public demo from these,
 * so a contradiction here would become a wrong answer there.
 *
 * - Shipping (US): orders placed by 2 p.m. ET on a business day ship that day. Standard 3-5 business days, $5.95, free
 *   over $50; Expedited 2 business days, $12.95; Overnight next business day, $24.95 (order by 12 p.m. ET).
 * - International: Canada, the UK, the EU, Australia, New Zealand and Japan. $19.95, free over $150; 7-14 business
 *   days (Canada 5-8). Duties and taxes are paid at checkout. Fuel canisters and bear spray ship within the US only.
 * - Returns: 30 days from delivery, unused with tags; free prepaid label in the US; refund 3 business days after the
 *   return reaches us (the bank takes 5-10 more). Exchanges are free.
 * - Warranty: 2 years against defects. Support: chat and phone Mon-Fri 8 a.m.-6 p.m. ET, Sat 9 a.m.-1 p.m. ET; email
 *   within one business day.
 * - Accounts: reset links last 1 hour; passwords have at least 8 characters; 5 wrong passwords lock sign-in for 15
 *   minutes.
 */
interface DemoArticle {
  title: string;
  category: string;
  questions: string[];
  body: string;
  status?: "draft";
  views: number;
  helpful: number;
  notHelpful: number;
}

const CATEGORIES = [
  "Account",
  "Billing & Payments",
  "Shipping & Delivery",
  "Returns & Exchanges",
  "Troubleshooting",
  "Product Care",
  "Contact & Sales",
] as const;

/** The articles sit beside the bundle in production (build.mjs copies them) and beside this file otherwise. */
function articlesFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, "demo-kb"), path.join(here, "../db/demo-kb")];
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) throw new Error(`Demo articles not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** Reads one article file; a malformed one stops the seed with the file's name, never seeds half an article. */
export function parseDemoArticle(file: string, text: string): DemoArticle {
  const match = /^---\n([\s\S]*?)\n---\n\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, "\n"));
  if (!match) throw new Error(`demo-kb/${file}: no front matter`);
  const [, head = "", body = ""] = match;
  const fields = new Map<string, string>();
  const questions: string[] = [];
  for (const line of head.split("\n")) {
    if (line.startsWith("  - ")) questions.push(line.slice(4).trim());
    else if (line.includes(":")) {
      const at = line.indexOf(":");
      fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
    }
  }
  const count = (key: string) => {
    const value = Number(fields.get(key));
    if (!Number.isInteger(value) || value < 0) throw new Error(`demo-kb/${file}: ${key} must be a whole number`);
    return value;
  };
  const title = fields.get("title");
  const category = fields.get("category");
  if (!title || !category) throw new Error(`demo-kb/${file}: title and category are required`);
  if (!(CATEGORIES as readonly string[]).includes(category)) throw new Error(`demo-kb/${file}: unknown category`);
  const status = fields.get("status");
  if (status !== undefined && status !== "draft") throw new Error(`demo-kb/${file}: status can only be draft`);
  return {
    title,
    category,
    questions,
    body: body.trimEnd(),
    ...(status ? { status } : {}),
    views: count("views"),
    helpful: count("helpful"),
    notHelpful: count("not_helpful"),
  };
}

/** The demo articles, in their files' order (the numbers in their names). */
export function loadDemoArticles(folder = articlesFolder()): DemoArticle[] {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith(".md"))
    .sort();
  return files.map((file) => parseDemoArticle(file, readFileSync(path.join(folder, file), "utf8")));
}

/** Turns {{Title}} into a link to that article in the help center; an unknown title is a mistake in the files. */
function linkArticles(articles: DemoArticle[], body: string, orgSlug: string): string {
  return body.replace(/\{\{([^}]+)\}\}/g, (_, title: string) => {
    if (!articles.some((a) => a.title === title)) throw new Error(`seed-kb: no article titled "${title}"`);
    return `[${title}](${helpArticlePath(orgSlug, kbSlug(title, "article"))})`;
  });
}

/** Seeds the demo organization's knowledge base; authors[0] writes most articles, authors[1] the product guides. */
export async function seedDemoKb(tx: Tx, org: { id: string; slug: string }, authors: { id: string }[]) {
  const orgId = org.id;
  const articles = loadDemoArticles();
  const categories = await tx
    .insert(kbCategories)
    .values(
      CATEGORIES.map((name, position) => ({
        organizationId: orgId,
        name,
        slug: kbSlug(name, "category"),
        position,
      })),
    )
    .returning({ id: kbCategories.id, name: kbCategories.name });
  const categoryId = new Map(categories.map((c) => [c.name, c.id]));
  const day = 86_400_000;
  await tx.insert(kbArticles).values(
    articles.map((article, i) => {
      const published = article.status !== "draft";
      const written = new Date(Date.now() - (60 - i * 2) * day);
      const productGuide = article.category === "Troubleshooting" || article.category === "Product Care";
      return {
        organizationId: orgId,
        categoryId: categoryId.get(article.category) ?? null,
        title: article.title,
        slug: kbSlug(article.title, "article"),
        body: linkArticles(articles, article.body, org.slug),
        questions: article.questions,
        status: published ? ("published" as const) : ("draft" as const),
        viewCount: article.views,
        helpfulCount: article.helpful,
        notHelpfulCount: article.notHelpful,
        authorId: (productGuide ? authors[1] : authors[0])?.id ?? null,
        createdAt: written,
        updatedAt: written,
        publishedAt: published ? written : null,
      };
    }),
  );
}
