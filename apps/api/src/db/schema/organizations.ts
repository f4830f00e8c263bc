import { SUBSCRIPTION_STATUSES } from "@cove/contract/billing.ts";
import { PLAN_IDS, TWO_FACTOR_POLICIES } from "@cove/contract/constants.ts";
import { EXPORT_STATUSES } from "@cove/contract/settings.ts";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea, createdAt, id, refCascade, timestamps, timestamptz } from "./columns.ts";

/** The tenant itself. RLS lets a request see only its own organization row. */
export const organizations = pgTable(
  "organizations",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    /** The plan whose limits apply; a trial runs on growth. */
    plan: text("plan", { enum: PLAN_IDS }).notNull(),
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    trialEndsAt: timestamptz("trial_ends_at"),
    timezone: text("timezone").notNull().default("UTC"),
    /** The last ticket number handed out; bumped in the creating transaction, so numbers never repeat. */
    ticketSeq: integer("ticket_seq").notNull().default(0),
    /**
     * The demo organization the public demo pages answer from (docs/product.md, "The demo organization"). Only the seed sets it; a
     * registration never can, whatever name or slug it takes. At most one organization has it.
     */
    isDemo: boolean("is_demo").notNull().default(false),
    /** Who must sign in with a second factor: nobody ("off"), admins, or everyone (the security settings). */
    twoFactorPolicy: text("two_factor_policy", { enum: TWO_FACTOR_POLICIES }).notNull().default("off"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("organizations_demo_unique").on(t.isDemo).where(sql`${t.isDemo}`)],
);

/** organization_id, as every tenant table has it: the row belongs to its organization and goes with it. */
export const organizationId = () => refCascade("organization_id", () => organizations.id).notNull();

/** The first columns of most tenant tables, in that order: the row's id and its organization. */
export const tenantRow = () => ({ id: id(), organizationId: organizationId() });

/** Exports of an organization's data: a ZIP of JSON files made by a background job, kept 7 days. */
export const organizationExports = pgTable(
  "organization_exports",
  {
    ...tenantRow(),
    status: text("status", { enum: EXPORT_STATUSES }).notNull().default("queued"),
    /** 0 to 100, as the job goes through the organization's tables. */
    progress: integer("progress").notNull().default(0),
    requestedBy: uuid("requested_by"),
    /**
     * Set: the export of one customer's data (a contact's, GDPR articles 15 and 20; modules/privacy), not the whole
     * organization's. No foreign key (schema files do not import the contacts module's): erasing the customer drops it.
     */
    contactId: uuid("contact_id"),
    data: bytea("data"),
    sizeBytes: integer("size_bytes"),
    error: text("error"),
    /** The process running it (host:pid:boot) and until when its claim holds; renewed while it runs. */
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamptz("lease_until"),
    createdAt: createdAt(),
    finishedAt: timestamptz("finished_at"),
  },
  (t) => [index("organization_exports_org_created_idx").on(t.organizationId, t.createdAt)],
);
