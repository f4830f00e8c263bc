import type { Article, ArticleSummary, KbArticleStatus } from "@cove/contract/kb.ts";
import { slugify } from "@cove/contract/slugs.ts";
import { and, asc, eq, inArray, like, ne, or, type SQL, sql } from "drizzle-orm";
import { kbArticles, kbCategories } from "../../db/schema/kb.ts";
import { users } from "../../db/schema/users.ts";
import { isUniqueViolation, type Queryable, type Tx } from "../../platform/db.ts";

/** The columns of an article as lists answer it, joined with its category and author. */
export const articleSummaryColumns = {
  id: kbArticles.id,
  title: kbArticles.title,
  slug: kbArticles.slug,
  status: kbArticles.status,
  categoryId: kbArticles.categoryId,
  categoryName: kbCategories.name,
  viewCount: kbArticles.viewCount,
  helpfulCount: kbArticles.helpfulCount,
  notHelpfulCount: kbArticles.notHelpfulCount,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  createdAt: kbArticles.createdAt,
  updatedAt: kbArticles.updatedAt,
  publishedAt: kbArticles.publishedAt,
};

/** A reader's vote on an article: one more on its helpful count, or on its not-helpful count. */
export function oneVote(helpful: boolean) {
  return helpful
    ? { helpfulCount: sql`${kbArticles.helpfulCount} + 1` }
    : { notHelpfulCount: sql`${kbArticles.notHelpfulCount} + 1` };
}

type SummaryRow = {
  id: string;
  title: string;
  slug: string;
  status: KbArticleStatus;
  categoryId: string | null;
  categoryName: string | null;
  viewCount: number;
  helpfulCount: number;
  notHelpfulCount: number;
  authorFirstName: string | null;
  authorLastName: string | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
};
type ArticleRow = SummaryRow & { body: string; questions: string[] };

export function toArticleSummary(row: SummaryRow): ArticleSummary {
  const author = `${row.authorFirstName ?? ""} ${row.authorLastName ?? ""}`.trim();
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status,
    category_id: row.categoryId,
    category_name: row.categoryName,
    view_count: row.viewCount,
    helpful_count: row.helpfulCount,
    not_helpful_count: row.notHelpfulCount,
    author_name: author || null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

export function toArticle(row: ArticleRow): Article {
  return { ...toArticleSummary(row), body: row.body, questions: row.questions };
}

export async function findArticleRow(db: Queryable, orgId: string, id: string): Promise<ArticleRow | undefined> {
  const [row] = await db
    .select({ ...articleSummaryColumns, body: kbArticles.body, questions: kbArticles.questions })
    .from(kbArticles)
    .leftJoin(kbCategories, eq(kbCategories.id, kbArticles.categoryId))
    .leftJoin(users, eq(users.id, kbArticles.authorId))
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.id, id)))
    .limit(1);
  return row;
}

/** An article's or category's slug: the one slugify (packages/contract), up to 80 characters. */
export const kbSlug = (text: string, fallback: "article" | "category") => slugify(text, { fallback, max: 80 });

/** The first of base, base-2, base-3... that is not in taken. */
function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const sameFamily = (column: typeof kbArticles.slug | typeof kbCategories.slug, base: string): SQL =>
  // The base holds only letters, digits, marks and dashes (slugify), so it needs no LIKE escaping.
  or(eq(column, base), like(column, `${base}-%`)) as SQL;

/**
 * Writes a row whose slug must be unique in the organization: picks the first free slug, then writes inside a
 * savepoint. The pick happens under a lock on the organization's slug family (held until commit), so writers of
 * titles with the same slug take their turns and each sees the slugs of those before it: many of them at once all
 * succeed, where picking without the lock let a writer lose the race for the same free slug again and again (titles
 * in a script the old slugs dropped all became "article"). The savepoint's retry stays for what the lock does not
 * cover (a slug family of another base that ends like this one, e.g. "faq-2" as a title).
 */
async function withFreeSlug<T>(
  tx: Tx,
  orgId: string,
  constraint: string,
  takenSlugs: () => Promise<string[]>,
  base: string,
  write: (sp: Tx, slug: string) => Promise<T>,
): Promise<T> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`cove-slug:${constraint}:${orgId}:${base}`}::text, 0))`,
  );
  for (let attempt = 0; ; attempt++) {
    const slug = firstFree(base, new Set(await takenSlugs()));
    try {
      return await tx.transaction((sp) => write(sp, slug));
    } catch (err) {
      if (attempt < 10 && isUniqueViolation(err, constraint)) continue;
      throw err;
    }
  }
}

export function withFreeArticleSlug<T>(
  tx: Tx,
  orgId: string,
  title: string,
  write: (sp: Tx, slug: string) => Promise<T>,
  exceptId?: string,
): Promise<T> {
  const base = kbSlug(title, "article");
  const taken = async () => {
    const filters = [eq(kbArticles.organizationId, orgId), sameFamily(kbArticles.slug, base)];
    if (exceptId) filters.push(ne(kbArticles.id, exceptId));
    const rows = await tx
      .select({ slug: kbArticles.slug })
      .from(kbArticles)
      .where(and(...filters));
    return rows.map((r) => r.slug);
  };
  return withFreeSlug(tx, orgId, "kb_articles_org_slug_unique", taken, base, write);
}

export function withFreeCategorySlug<T>(
  tx: Tx,
  orgId: string,
  name: string,
  write: (sp: Tx, slug: string) => Promise<T>,
): Promise<T> {
  const base = kbSlug(name, "category");
  const taken = async () => {
    const rows = await tx
      .select({ slug: kbCategories.slug })
      .from(kbCategories)
      .where(and(eq(kbCategories.organizationId, orgId), sameFamily(kbCategories.slug, base)));
    return rows.map((r) => r.slug);
  };
  return withFreeSlug(tx, orgId, "kb_categories_org_slug_unique", taken, base, write);
}

/** A published article as the assistant reads it: drafts are never used or cited. */
export interface PublishedArticle {
  id: string;
  title: string;
  slug: string;
  body: string;
  questions: string[];
}

/** The organization's published articles, for the assistant's index (other modules read articles through kb). */
export async function publishedArticles(db: Queryable, orgId: string): Promise<PublishedArticle[]> {
  return db
    .select({
      id: kbArticles.id,
      title: kbArticles.title,
      slug: kbArticles.slug,
      body: kbArticles.body,
      questions: kbArticles.questions,
    })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.status, "published")))
    .orderBy(asc(kbArticles.id));
}

/**
 * A subquery (for a lateral join) of one row, stamp: a fingerprint of the organization's published articles (how
 * many, the latest change, the sum of their change times) that changes whenever one is published, edited or removed.
 */
export const publishedArticlesStamp = (orgId: SQL) => sql`
  select count(*)::int || '|' || coalesce(max(a.updated_at)::text, '') || '|'
         || coalesce(sum(extract(epoch from a.updated_at))::text, '') as stamp
  from ${kbArticles} a
  where a.organization_id = ${orgId} and a.status = 'published'`;

/**
 * A published article of the organization found by its help-center address (its slug), for a module that met a link
 * to it, or by its id, for one a person picked.
 */
export async function findPublished(
  db: Queryable,
  orgId: string,
  by: { slug: string } | { id: string },
): Promise<{ id: string; title: string; questions: string[] } | undefined> {
  const [row] = await db
    .select({ id: kbArticles.id, title: kbArticles.title, questions: kbArticles.questions })
    .from(kbArticles)
    .where(
      and(
        eq(kbArticles.organizationId, orgId),
        "slug" in by ? eq(kbArticles.slug, by.slug) : eq(kbArticles.id, by.id),
        eq(kbArticles.status, "published"),
      ),
    )
    .limit(1);
  return row;
}

/** The titles of some of the organization's articles, by id (for a module that lists things about articles). */
export async function articleTitles(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: kbArticles.id, title: kbArticles.title })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), inArray(kbArticles.id, ids)));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Some of the organization's articles' titles and how many example questions each has, by id. */
export async function articleQuestionCounts(db: Queryable, orgId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, { title: string; questions: number }>();
  const rows = await db
    .select({
      id: kbArticles.id,
      title: kbArticles.title,
      questions: sql<number>`cardinality(${kbArticles.questions})`,
    })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), inArray(kbArticles.id, ids)));
  return new Map(rows.map((r) => [r.id, { title: r.title, questions: Number(r.questions) }]));
}

/** An article's title, status and example questions, locked until the transaction ends (questions are added to). */
export async function lockArticleQuestions(db: Queryable, orgId: string, id: string) {
  const [row] = await db
    .select({ title: kbArticles.title, questions: kbArticles.questions, status: kbArticles.status })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.id, id)))
    .for("update");
  return row;
}

/** Replaces an article's example questions (a change of the article: its index stamp moves). */
export async function saveArticleQuestions(db: Queryable, orgId: string, id: string, questions: string[]) {
  await db
    .update(kbArticles)
    .set({ questions, updatedAt: new Date() })
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.id, id)));
}

/** How many articles the organization has published (the getting-started checklist). */
export async function publishedArticleCount(db: Queryable, orgId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.status, "published")));
  return row?.n ?? 0;
}
