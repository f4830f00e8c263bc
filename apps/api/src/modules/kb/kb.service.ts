import type { AttachmentLimits } from "@cove/contract/attachment-limits.ts";
import type { Attachment } from "@cove/contract/attachments.ts";
import type {
  Article,
  ArticleListAnswer,
  articleListQuery,
  Category,
  createArticleBody,
  createCategoryBody,
  FeedbackAnswer,
  updateArticleBody,
} from "@cove/contract/kb.ts";
import { and, asc, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { kbArticles, kbCategories } from "../../db/schema/kb.ts";
import { users } from "../../db/schema/users.ts";
import { after, cursorText, decodeCursor, encodeCursor, type SortKey } from "../../platform/cursor.ts";
import { isUniqueViolation } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import {
  addArticleFile,
  deleteArticleFile,
  type FileContent,
  listArticleFiles,
  readArticleFile,
} from "../attachments/index.ts";
import {
  articleSummaryColumns,
  findArticleRow,
  oneVote,
  toArticle,
  toArticleSummary,
  withFreeArticleSlug,
  withFreeCategorySlug,
} from "./kb.queries.ts";
import { articleSearch, searchMatch } from "./kb.search.ts";

const articleNotFound = () => notFound("Article");
const EMPTY_BODY = "Write the article before publishing it.";

export async function listArticles(ctx: Ctx, query: z.output<typeof articleListQuery>): Promise<ArticleListAnswer> {
  const filters: SQL[] = [eq(kbArticles.organizationId, ctx.orgId)];
  if (query.status) filters.push(eq(kbArticles.status, query.status));
  if (query.category_id === "none") filters.push(isNull(kbArticles.categoryId));
  else if (query.category_id) filters.push(eq(kbArticles.categoryId, query.category_id));
  let rank: SQL | undefined;
  if (query.search) {
    const search = articleSearch(query.search);
    // A search with nothing searchable in it matches nothing rather than everything.
    filters.push(search ? await searchMatch(ctx.db, and(...filters), search) : sql`false`);
    rank = search?.rank;
  }
  // The order, as a cursor keeps it (platform/cursor.ts): the search's rank first when there is one.
  const order: SortKey[] = [
    ...(rank ? [{ column: rank, type: "real", desc: true }] : []),
    { column: sql`${kbArticles.updatedAt}`, type: "timestamptz", desc: true },
    { column: sql`${kbArticles.id}`, type: "uuid", desc: false },
  ];
  const list = rank ? "articles:search" : "articles";
  const where = and(...filters);
  const start = query.cursor ? after(order, decodeCursor(list, query.cursor, order)) : undefined;
  const rows = await ctx.db
    .select({
      ...articleSummaryColumns,
      cursorRank: rank ? cursorText(rank) : sql<string | null>`null`,
      cursorUpdatedAt: cursorText(sql`${kbArticles.updatedAt}`),
    })
    .from(kbArticles)
    .leftJoin(kbCategories, eq(kbCategories.id, kbArticles.categoryId))
    .leftJoin(users, eq(users.id, kbArticles.authorId))
    .where(and(where, start))
    .orderBy(...(rank ? [desc(rank)] : []), desc(kbArticles.updatedAt), asc(kbArticles.id))
    .limit(query.limit)
    .offset(query.cursor ? 0 : (query.page - 1) * query.limit);
  const [total] = await ctx.db.select({ n: count() }).from(kbArticles).where(where);
  const totalCount = total?.n ?? 0;
  const last = rows.at(-1);
  const values = (r: NonNullable<typeof last>) => [...(rank ? [r.cursorRank] : []), r.cursorUpdatedAt, r.id];
  return {
    articles: rows.map(toArticleSummary),
    pagination: {
      page: query.page,
      limit: query.limit,
      total: totalCount,
      pages: Math.ceil(totalCount / query.limit),
      next_cursor: rows.length === query.limit && last ? encodeCursor(list, values(last)) : null,
    },
  };
}

export async function getArticle(ctx: Ctx, id: string): Promise<Article> {
  const row = await findArticleRow(ctx.db, ctx.orgId, id);
  if (!row) throw articleNotFound();
  return { ...toArticle(row), attachments: await listArticleFiles(ctx.db, ctx.orgId, id) };
}

/** Staff attach a file to an article (drafts too); the help center shows it once the article is published. */
export async function attachToArticle(
  ctx: Ctx,
  id: string,
  file: { filename: string; bytes: FileContent },
  limits: AttachmentLimits,
): Promise<Attachment> {
  if (!(await findArticleRow(ctx.db, ctx.orgId, id))) throw articleNotFound();
  return addArticleFile(ctx.db, ctx.orgId, id, file, limits);
}

export async function articleFile(ctx: Ctx, id: string, fileId: string) {
  const file = await readArticleFile(ctx.db, ctx.orgId, id, fileId);
  if (!file) throw notFound("File");
  return file;
}

export async function removeArticleFile(ctx: Ctx, id: string, fileId: string): Promise<void> {
  if (!(await deleteArticleFile(ctx.db, ctx.orgId, id, fileId))) throw notFound("File");
}

/** Another organization's category is not found, exactly like one that does not exist. */
async function assertCategory(ctx: Ctx, categoryId: string | null | undefined) {
  if (!categoryId) return;
  const [found] = await ctx.db
    .select({ id: kbCategories.id })
    .from(kbCategories)
    .where(and(eq(kbCategories.organizationId, ctx.orgId), eq(kbCategories.id, categoryId)));
  if (!found) throw notFound("Category");
}

export async function createArticle(ctx: Ctx, input: z.output<typeof createArticleBody>): Promise<Article> {
  await assertCategory(ctx, input.category_id);
  if (input.status === "published" && input.body.trim() === "") throw new AppError("BAD_REQUEST", EMPTY_BODY);
  const id = await withFreeArticleSlug(ctx.db, ctx.orgId, input.title, async (sp, slug) => {
    const [created] = await sp
      .insert(kbArticles)
      .values({
        organizationId: ctx.orgId,
        categoryId: input.category_id,
        title: input.title,
        slug,
        body: input.body,
        questions: input.questions,
        status: input.status,
        authorId: ctx.userId,
        publishedAt: input.status === "published" ? new Date() : null,
      })
      .returning({ id: kbArticles.id });
    if (!created) throw new Error("article insert returned nothing");
    return created.id;
  });
  await ctx.emit("kb.article_changed", { article_id: id, change: "created", published: input.status === "published" });
  return getArticle(ctx, id);
}

export async function updateArticle(ctx: Ctx, id: string, input: z.output<typeof updateArticleBody>): Promise<Article> {
  const before = await findArticleRow(ctx.db, ctx.orgId, id);
  if (!before) throw articleNotFound();
  await assertCategory(ctx, input.category_id);
  const status = input.status ?? before.status;
  const body = input.body ?? before.body;
  if (status === "published" && body.trim() === "") throw new AppError("BAD_REQUEST", EMPTY_BODY);

  const changes: Partial<typeof kbArticles.$inferInsert> = { updatedAt: new Date() };
  if (input.title !== undefined) changes.title = input.title;
  if (input.body !== undefined) changes.body = input.body;
  if (input.category_id !== undefined) changes.categoryId = input.category_id;
  if (input.questions !== undefined) changes.questions = input.questions;
  if (input.status !== undefined) changes.status = input.status;
  if (status === "published" && before.status !== "published") changes.publishedAt = new Date();

  const where = and(eq(kbArticles.organizationId, ctx.orgId), eq(kbArticles.id, id));
  // Until an article is first published its address follows its title; after that the address stays, so links in
  // the help center, in replies and in the assistant's answers keep working.
  if (input.title !== undefined && input.title !== before.title && before.publishedAt === null) {
    await withFreeArticleSlug(
      ctx.db,
      ctx.orgId,
      input.title,
      (sp, slug) =>
        sp
          .update(kbArticles)
          .set({ ...changes, slug })
          .where(where),
      id,
    );
  } else {
    await ctx.db.update(kbArticles).set(changes).where(where);
  }
  await ctx.emit("kb.article_changed", { article_id: id, change: "updated", published: status === "published" });
  return getArticle(ctx, id);
}

export async function deleteArticle(ctx: Ctx, id: string): Promise<void> {
  const deleted = await ctx.db
    .delete(kbArticles)
    .where(and(eq(kbArticles.organizationId, ctx.orgId), eq(kbArticles.id, id)))
    .returning({ id: kbArticles.id, status: kbArticles.status });
  const [gone] = deleted;
  if (!gone) throw articleNotFound();
  await ctx.emit("kb.article_changed", { article_id: id, change: "deleted", published: gone.status === "published" });
}

export async function recordFeedback(ctx: Ctx, id: string, helpful: boolean): Promise<FeedbackAnswer> {
  const [counts] = await ctx.db
    .update(kbArticles)
    .set(oneVote(helpful))
    .where(and(eq(kbArticles.organizationId, ctx.orgId), eq(kbArticles.id, id)))
    .returning({ helpful: kbArticles.helpfulCount, notHelpful: kbArticles.notHelpfulCount });
  if (!counts) throw articleNotFound();
  return { helpful_count: counts.helpful, not_helpful_count: counts.notHelpful };
}

export async function listCategories(ctx: Ctx): Promise<Category[]> {
  const rows = await ctx.db
    .select({
      id: kbCategories.id,
      name: kbCategories.name,
      slug: kbCategories.slug,
      position: kbCategories.position,
      articles: sql<number>`count(${kbArticles.id})::int`,
      published: sql<number>`(count(${kbArticles.id}) filter (where ${kbArticles.status} = 'published'))::int`,
    })
    .from(kbCategories)
    .leftJoin(
      kbArticles,
      and(eq(kbArticles.organizationId, kbCategories.organizationId), eq(kbArticles.categoryId, kbCategories.id)),
    )
    .where(eq(kbCategories.organizationId, ctx.orgId))
    .groupBy(kbCategories.id)
    .orderBy(asc(kbCategories.position), asc(kbCategories.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    position: r.position,
    article_count: r.articles,
    published_count: r.published,
  }));
}

export async function createCategory(ctx: Ctx, input: z.output<typeof createCategoryBody>): Promise<Category> {
  const taken = () => new AppError("CONFLICT", `A category named "${input.name}" already exists.`);
  const [sameName] = await ctx.db
    .select({ id: kbCategories.id })
    .from(kbCategories)
    .where(and(eq(kbCategories.organizationId, ctx.orgId), sql`lower(${kbCategories.name}) = lower(${input.name})`));
  if (sameName) throw taken();
  try {
    return await withFreeCategorySlug(ctx.db, ctx.orgId, input.name, async (sp, slug) => {
      // New categories go last, after the ones the organization has already ordered.
      const [created] = await sp
        .insert(kbCategories)
        .values({
          organizationId: ctx.orgId,
          name: input.name,
          slug,
          position: sql`(select coalesce(max(${kbCategories.position}), -1) + 1 from ${kbCategories} where ${kbCategories.organizationId} = ${ctx.orgId})`,
        })
        .returning({
          id: kbCategories.id,
          name: kbCategories.name,
          slug: kbCategories.slug,
          position: kbCategories.position,
        });
      if (!created) throw new Error("category insert returned nothing");
      await ctx.emit("kb.category_changed", { category_id: created.id, change: "created" });
      return { ...created, article_count: 0, published_count: 0 };
    });
  } catch (err) {
    if (isUniqueViolation(err, "kb_categories_org_name_unique")) throw taken();
    throw err;
  }
}
