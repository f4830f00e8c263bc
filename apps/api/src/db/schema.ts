import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** The tenant itself. RLS lets a request see only its own organization row. */
export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  /** The plan whose limits apply; a trial runs on growth. */
  plan: text("plan", { enum: ["starter", "growth", "business"] }).notNull(),
  subscriptionStatus: text("subscription_status", { enum: ["trialing", "active", "past_due", "canceled"] }).notNull(),
  trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
  timezone: text("timezone").notNull().default("UTC"),
  /** The last ticket number handed out; bumped in the creating transaction, so numbers never repeat. */
  ticketSeq: integer("ticket_seq").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    role: text("role", { enum: ["agent", "admin"] }).notNull(),
    status: text("status", { enum: ["active", "inactive", "invited"] })
      .notNull()
      .default("active"),
    avatarUrl: text("avatar_url"),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Sign-in is by email alone, so an email belongs to one account across the whole deployment.
    uniqueIndex("users_email_unique").on(t.email),
    index("users_org_created_idx").on(t.organizationId, t.createdAt),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** sha256 of the bearer token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_unique").on(t.tokenHash),
    index("sessions_org_user_idx").on(t.organizationId, t.userId),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("password_reset_tokens_hash_unique").on(t.tokenHash),
    index("password_reset_tokens_org_user_idx").on(t.organizationId, t.userId),
  ],
);

/**
 * Invitations: the invited person is already a users row (status invited, so they count toward seats and show in the
 * team list); this holds the single-use link, as the sha256 of its token.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_unique").on(t.tokenHash),
    index("invitations_org_user_idx").on(t.organizationId, t.userId),
  ],
);

/** Failed sign-ins, for throttling. Not tenant data: it is keyed by email and address before any organization is known. */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_failures_email_idx").on(t.email, t.createdAt),
    index("login_failures_ip_idx").on(t.ip, t.createdAt),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const TICKET_STATUS_VALUES = ["open", "pending", "solved", "closed"] as const;
export const TICKET_PRIORITY_VALUES = ["low", "normal", "high", "urgent"] as const;

export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ticketNumber: integer("ticket_number").notNull(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    status: text("status", { enum: TICKET_STATUS_VALUES }).notNull().default("open"),
    priority: text("priority", { enum: TICKET_PRIORITY_VALUES }).notNull().default("normal"),
    source: text("source", { enum: ["web", "email", "chat", "portal", "api"] })
      .notNull()
      .default("web"),
    requesterName: text("requester_name").notNull(),
    requesterEmail: text("requester_email").notNull(),
    assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    /** The words of every comment, appended as comments arrive, so one index answers search over both. */
    commentsTsv: tsvector("comments_tsv").notNull().default(sql`''::tsvector`),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, coalesce(subject, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce(requester_name, '') || ' ' || coalesce(requester_email, '') || ' ' || replace(coalesce(requester_email, ''), '@', ' ')), 'C') || comments_tsv`,
    ),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    solvedAt: timestamp("solved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("tickets_org_number_unique").on(t.organizationId, t.ticketNumber),
    // The list's order (updated_at desc, ticket_number desc) in full, so a page is read straight off an index
    // (ticket_number included: the page's numbers come from the index alone, then only its 25 rows are read).
    // NULLS FIRST is what a plain DESC sorts by; an index sorted otherwise cannot serve that ORDER BY.
    index("tickets_org_updated_idx").on(
      t.organizationId,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_status_updated_idx").on(
      t.organizationId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_priority_updated_idx").on(
      t.organizationId,
      t.priority,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_assignee_updated_idx").on(
      t.organizationId,
      t.assigneeId,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_created_idx").on(t.organizationId, t.createdAt),
    index("tickets_org_status_solved_idx").on(t.organizationId, t.status, t.solvedAt),
    // The organization's own words: ticket_org_words (migration 0006) prefixes each lexeme with the organization, so
    // a search reads only its organization's entries of the index instead of every tenant's.
    index("tickets_org_words_idx").using("gin", sql`ticket_org_words(${t.organizationId}, ${t.searchVector})`),
  ],
);

const tallyColumns = () => ({
  organizationId: uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  status: text("status", { enum: TICKET_STATUS_VALUES }).notNull(),
  priority: text("priority", { enum: TICKET_PRIORITY_VALUES }).notNull(),
  n: integer("n").notNull().default(0),
  /** Tickets with a solved_at, and the sum of their solved_at - created_at in seconds. */
  resolvedN: integer("resolved_n").notNull().default(0),
  resolvedSeconds: doublePrecision("resolved_seconds").notNull().default(0),
});

/**
 * How many tickets an organization has per (status, priority), kept by triggers on tickets (migration 0007), with
 * the sums behind the average resolution time: a list's total or a dashboard count adds up at most 16 rows instead
 * of counting up to millions of tickets.
 */
export const ticketTotals = pgTable("ticket_totals", tallyColumns(), (t) => [
  unique("ticket_totals_key").on(t.organizationId, t.status, t.priority),
]);

/** The same per assignee too (null: unassigned), for totals of a list filtered by assignee. */
export const ticketTallies = pgTable(
  "ticket_tallies",
  { ...tallyColumns(), assigneeId: uuid("assignee_id") },
  // Assignee before status and priority: one assignee's counts are adjacent in the index.
  (t) => [unique("ticket_tallies_key").on(t.organizationId, t.assigneeId, t.status, t.priority).nullsNotDistinct()],
);

/**
 * A counter per organization that triggers bump in every transaction changing what cached answers show: its tickets,
 * comments, ticket events, and its team's names and statuses (migration 0013). An answer is served from the cache
 * only while the counter still has the value it had when the answer was computed (platform/answer-cache.ts). Only
 * those triggers write it, so taking its row lock never waits on anything else. No foreign key: the triggers fire
 * while an organization's rows cascade away, and the row goes with the organization's other data.
 */
export const dataVersions = pgTable("data_versions", {
  organizationId: uuid("organization_id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

export const ticketComments = pgTable(
  "ticket_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    isPublic: boolean("is_public").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("ticket_comments_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt)],
);

export const ticketEvents = pgTable(
  "ticket_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Orders the events of one change, which share a timestamp. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    type: text("type", { enum: ["created", "status", "priority", "assignee", "tags"] }).notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    createdAt: createdAt(),
  },
  (t) => [index("ticket_events_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt)],
);

export const KB_ARTICLE_STATUS_VALUES = ["draft", "published"] as const;

/** Knowledge-base categories: an organization's own list, named once each (case-insensitively). */
export const kbCategories = pgTable(
  "kb_categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
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
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id").references(() => kbCategories.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    /** For the help center's URLs; unique within the organization. */
    slug: text("slug").notNull(),
    /** Markdown, rendered through a sanitizer wherever it is shown. */
    body: text("body").notNull(),
    /** Other ways a customer asks the question this article answers (retrieval matches them too). The search vector
     * reads them through kb_questions_text(), an immutable join defined in migration 0004 (array_to_string is only
     * stable, which a generated column does not accept). */
    questions: text("questions").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: KB_ARTICLE_STATUS_VALUES }).notNull().default("draft"),
    viewCount: integer("view_count").notNull().default(0),
    helpfulCount: integer("helpful_count").notNull().default(0),
    notHelpfulCount: integer("not_helpful_count").notNull().default(0),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, kb_questions_text(questions)), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(body, '')), 'B')`,
    ),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("kb_articles_org_slug_unique").on(t.organizationId, t.slug),
    index("kb_articles_org_updated_idx").on(t.organizationId, t.updatedAt.desc()),
    index("kb_articles_org_status_idx").on(t.organizationId, t.status),
    index("kb_articles_org_category_idx").on(t.organizationId, t.categoryId),
    index("kb_articles_search_idx").using("gin", t.searchVector),
  ],
);

export const AI_TONE_VALUES = ["friendly", "professional", "concise"] as const;

/** Each organization's assistant: one row, created with defaults on first use. */
export const aiSettings = pgTable("ai_settings", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(true),
  /** Below this confidence (0..1) the assistant hands off to a person. */
  handoffThreshold: real("handoff_threshold").notNull().default(0.5),
  greeting: text("greeting").notNull().default("Hi! I'm the virtual assistant. How can I help you today?"),
  tone: text("tone", { enum: AI_TONE_VALUES }).notNull().default("friendly"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Every answer the assistant gave, so its resolution rate is measured, not claimed. */
export const aiAnswers = pgTable(
  "ai_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Where the question came from: the staff test console, the public demo, live chat, the portal. */
    channel: text("channel", { enum: ["console", "demo", "chat", "portal", "api"] }).notNull(),
    question: text("question").notNull(),
    confidence: real("confidence").notNull(),
    handoff: boolean("handoff").notNull(),
    provider: text("provider").notNull(),
    sourceArticleIds: uuid("source_article_ids").array().notNull().default(sql`'{}'::uuid[]`),
    latencyMs: integer("latency_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ai_answers_org_created_idx").on(t.organizationId, t.createdAt)],
);
