import { API_KEY_SCOPES, DEFAULT_BRAND_COLOR } from "@cove/contract/settings.ts";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

/** Branding and email settings: one row per organization, created on first change. */
export const organizationSettings = pgTable("organization_settings", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  brandColor: text("brand_color").notNull().default(DEFAULT_BRAND_COLOR),
  /** A data URL of the logo (PNG, JPEG or WebP, checked on its bytes), served at /api/public/{slug}/logo. */
  logo: text("logo"),
  /** Changes with the logo, so its URL changes and browsers fetch the new one. */
  logoVersion: text("logo_version"),
  emailSenderName: text("email_sender_name").notNull().default(""),
  emailReplyTo: text("email_reply_to"),
  emailSignature: text("email_signature").notNull().default(""),
  /** A ticket opened by email gets an acknowledgement (the email channel); on unless turned off. */
  emailAcknowledge: boolean("email_acknowledge").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Keys for the public API: the token is shown once; only its sha256 is stored. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scope: text("scope", { enum: API_KEY_SCOPES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, shown in the list. */
    prefix: text("prefix").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash_unique").on(t.tokenHash),
    index("api_keys_org_created_idx").on(t.organizationId, t.createdAt),
  ],
);
