import { KB_ARTICLE_STATUSES } from "@cove/contract/kb.ts";
import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, refSetNull, timestamps, timestamptz, tsvector } from "./columns.ts";
import { tenantRow } from "./organizations.ts";
import { users } from "./users.ts";

/** Knowledge-base categories: an organization's own list, named once each (case-insensitively). */
export const kbCategories = pgTable(
  "kb_categories",
  {
    ...tenantRow(),
    name: text("name").notNull(),
    /** For the help center's URLs. */
    slug: text("slug").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("kb_categories_org_name_unique").on(t.organizationId, sql`lower(${t.name})`),
    uniqueIndex("kb_categories_org_slug_unique").on(t.organizationId, t.slug),
  ],
);

/** Knowledge-base articles: Markdown bodies, drafts or published; published ones feed the help center and the AI. */
export const kbArticles = pgTable(
  "kb_articles",
  {
    ...tenantRow(),
    categoryId: refSetNull("category_id", () => kbCategories.id),
    title: text("title").notNull(),
    /** For the help center's URLs; unique within the organization. */
    slug: text("slug").notNull(),
    /** Markdown, rendered through a sanitizer wherever it is shown. */
    body: text("body").notNull(),
    /** Other ways a customer asks the question this article answers (retrieval matches them too). The search vector
     * reads them through kb_questions_text(), an immutable join defined in migration 0004 (array_to_string is only
     * stable, which a generated column does not accept). */
    questions: text("questions").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: KB_ARTICLE_STATUSES }).notNull().default("draft"),
    viewCount: integer("view_count").notNull().default(0),
    helpfulCount: integer("helpful_count").notNull().default(0),
    notHelpfulCount: integer("not_helpful_count").notNull().default(0),
    authorId: refSetNull("author_id", () => users.id),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, kb_questions_text(questions)), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(body, '')), 'B')`,
    ),
    ...timestamps(),
    publishedAt: timestamptz("published_at"),
  },
  (t) => [
    uniqueIndex("kb_articles_org_slug_unique").on(t.organizationId, t.slug),
    index("kb_articles_org_updated_idx").on(t.organizationId, t.updatedAt.desc()),
    index("kb_articles_org_status_idx").on(t.organizationId, t.status),
    index("kb_articles_org_category_idx").on(t.organizationId, t.categoryId),
    index("kb_articles_search_idx").using("gin", t.searchVector),
  ],
);
