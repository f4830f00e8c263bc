import type { Article, ArticleSummary, KbArticleStatus } from "@cove/contract/kb.ts";
import { and, eq, like, ne, or, type SQL } from "drizzle-orm";
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

/** The readable ASCII slug of a title or name ("Returns & Exchanges" -> "returns-exchanges"). */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || fallback;
}

/** The first of base, base-2, base-3... that is not in taken. */
function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const sameFamily = (column: typeof kbArticles.slug | typeof kbCategories.slug, base: string): SQL =>
  // The base holds only [a-z0-9-], so it needs no LIKE escaping.
  or(eq(column, base), like(column, `${base}-%`)) as SQL;

/**
 * Writes a row whose slug must be unique in the organization: picks the first free slug, then writes inside a
 * savepoint, so a concurrent writer that took the same slug first costs a retry rather than the whole transaction.
 */
async function withFreeSlug<T>(
  tx: Tx,
  constraint: string,
  takenSlugs: () => Promise<string[]>,
  base: string,
  write: (sp: Tx, slug: string) => Promise<T>,
): Promise<T> {
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
  const base = slugify(title, "article");
  const taken = async () => {
    const filters = [eq(kbArticles.organizationId, orgId), sameFamily(kbArticles.slug, base)];
    if (exceptId) filters.push(ne(kbArticles.id, exceptId));
    const rows = await tx
      .select({ slug: kbArticles.slug })
      .from(kbArticles)
      .where(and(...filters));
    return rows.map((r) => r.slug);
  };
  return withFreeSlug(tx, "kb_articles_org_slug_unique", taken, base, write);
}

export function withFreeCategorySlug<T>(
  tx: Tx,
  orgId: string,
  name: string,
  write: (sp: Tx, slug: string) => Promise<T>,
): Promise<T> {
  const base = slugify(name, "category");
  const taken = async () => {
    const rows = await tx
      .select({ slug: kbCategories.slug })
      .from(kbCategories)
      .where(and(eq(kbCategories.organizationId, orgId), sameFamily(kbCategories.slug, base)));
    return rows.map((r) => r.slug);
  };
  return withFreeSlug(tx, "kb_categories_org_slug_unique", taken, base, write);
}
