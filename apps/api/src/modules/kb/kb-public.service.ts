import {
  HELP_SEARCH_LIMIT,
  type HelpArticleAnswer,
  type HelpArticleLink,
  type HelpCenterAnswer,
  type HelpSearchAnswer,
} from "@cove/contract/kb.ts";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { kbArticles, kbCategories } from "../../db/schema/kb.ts";
import type { Db } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { organizationAt } from "../../platform/organizations.ts";
import { type Ctx, withVisitor } from "../../platform/tenancy.ts";
import { listArticleFiles, readArticleFile } from "../attachments/index.ts";
import { oneVote } from "./kb.queries.ts";
import { articleSearch, excerptOf, searchMatch } from "./kb.search.ts";

type Visitor = Pick<Ctx, "orgId" | "db">;
type Organization = { id: string; name: string; slug: string };

/** A help center lists at most this many articles on its front page. */
const FRONT_PAGE_MAX = 1000;
const RELATED_MAX = 5;

const published = (orgId: string) => and(eq(kbArticles.organizationId, orgId), eq(kbArticles.status, "published"));
const link = { id: kbArticles.id, title: kbArticles.title, slug: kbArticles.slug };

/** Runs fn for the organization behind a help center address, confined to it by row-level security. */
async function inHelpCenter<T>(db: Db, orgSlug: string, fn: (v: Visitor, org: Organization) => Promise<T>) {
  const org: Organization = await organizationAt(db, orgSlug, "Help center");
  return withVisitor(db, org.id, (v) => fn(v, org));
}

export function helpCenter(db: Db, orgSlug: string): Promise<HelpCenterAnswer> {
  return inHelpCenter(db, orgSlug, async (v, org) => {
    const categories = await v.db
      .select({ id: kbCategories.id, name: kbCategories.name, slug: kbCategories.slug })
      .from(kbCategories)
      .where(eq(kbCategories.organizationId, v.orgId))
      .orderBy(asc(kbCategories.position), asc(kbCategories.name));
    const articles = await v.db
      .select({ ...link, categoryId: kbArticles.categoryId })
      .from(kbArticles)
      .where(published(v.orgId))
      .orderBy(asc(kbArticles.title), asc(kbArticles.id))
      .limit(FRONT_PAGE_MAX);
    const byCategory = new Map<string | null, HelpArticleLink[]>();
    for (const { categoryId, ...article } of articles) {
      const list = byCategory.get(categoryId) ?? [];
      list.push(article);
      byCategory.set(categoryId, list);
    }
    return {
      organization: { name: org.name, slug: org.slug },
      // A category with nothing published in it is not shown to customers.
      categories: categories
        .map((c) => ({ ...c, articles: byCategory.get(c.id) ?? [] }))
        .filter((c) => c.articles.length > 0),
      uncategorized: byCategory.get(null) ?? [],
    };
  });
}

export function searchHelpCenter(db: Db, orgSlug: string, q: string): Promise<HelpSearchAnswer> {
  return inHelpCenter(db, orgSlug, async (v) => {
    const search = articleSearch(q);
    if (!search) return { results: [] };
    const rows = await v.db
      .select({ ...link, body: kbArticles.body, categoryName: kbCategories.name })
      .from(kbArticles)
      .leftJoin(kbCategories, eq(kbCategories.id, kbArticles.categoryId))
      .where(and(published(v.orgId), await searchMatch(v.db, published(v.orgId), search)))
      .orderBy(desc(search.rank), asc(kbArticles.title))
      .limit(HELP_SEARCH_LIMIT);
    return {
      results: rows.map((r) => ({
        id: r.id,
        title: r.title,
        slug: r.slug,
        category_name: r.categoryName,
        excerpt: excerptOf(r.body),
      })),
    };
  });
}

/** One published article by its address; reading it counts a view. */
export function helpArticle(db: Db, orgSlug: string, articleSlug: string): Promise<HelpArticleAnswer> {
  return inHelpCenter(db, orgSlug, async (v, org) => {
    const [article] = await v.db
      .update(kbArticles)
      .set({ viewCount: sql`${kbArticles.viewCount} + 1` })
      .where(and(published(v.orgId), eq(kbArticles.slug, articleSlug)))
      .returning({
        id: kbArticles.id,
        title: kbArticles.title,
        slug: kbArticles.slug,
        body: kbArticles.body,
        categoryId: kbArticles.categoryId,
        updatedAt: kbArticles.updatedAt,
      });
    if (!article) throw notFound("Article");
    let category: { name: string; slug: string } | null = null;
    let related: HelpArticleLink[] = [];
    if (article.categoryId) {
      const categoryId = article.categoryId;
      const categories = await v.db
        .select({ name: kbCategories.name, slug: kbCategories.slug })
        .from(kbCategories)
        .where(and(eq(kbCategories.organizationId, v.orgId), eq(kbCategories.id, categoryId)));
      const others = await v.db
        .select(link)
        .from(kbArticles)
        .where(and(published(v.orgId), eq(kbArticles.categoryId, categoryId), ne(kbArticles.id, article.id)))
        .orderBy(desc(kbArticles.viewCount), asc(kbArticles.title))
        .limit(RELATED_MAX);
      category = categories[0] ?? null;
      related = others;
    }
    return {
      organization: { name: org.name, slug: org.slug },
      article: {
        id: article.id,
        title: article.title,
        slug: article.slug,
        body: article.body,
        category,
        updated_at: article.updatedAt.toISOString(),
        attachments: await listArticleFiles(v.db, v.orgId, article.id),
      },
      related,
    };
  });
}

/** A file of a published article (a draft's, or any other id: not found). */
export function helpArticleFile(db: Db, orgSlug: string, articleSlug: string, fileId: string) {
  return inHelpCenter(db, orgSlug, async (v) => {
    const [article] = await v.db
      .select({ id: kbArticles.id })
      .from(kbArticles)
      .where(and(published(v.orgId), eq(kbArticles.slug, articleSlug)));
    const file = article ? await readArticleFile(v.db, v.orgId, article.id, recordId("File", fileId)) : null;
    if (!file) throw notFound("File");
    return file;
  });
}

export function recordHelpFeedback(db: Db, orgSlug: string, articleSlug: string, helpful: boolean): Promise<void> {
  return inHelpCenter(db, orgSlug, async (v) => {
    const [voted] = await v.db
      .update(kbArticles)
      .set(oneVote(helpful))
      .where(and(published(v.orgId), eq(kbArticles.slug, articleSlug)))
      .returning({ id: kbArticles.id });
    if (!voted) throw notFound("Article");
  });
}
