import { ROLES, USER_STATUSES } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, refCascade, refSetNull, timestamps, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";

export const users = pgTable(
  "users",
  {
    ...tenantRow(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    status: text("status", { enum: USER_STATUSES }).notNull().default("active"),
    avatarUrl: text("avatar_url"),
    lastLoginAt: timestamptz("last_login_at"),
    ...timestamps(),
  },
  (t) => [
    // Sign-in is by email alone, so an email belongs to one account across the whole deployment: one member who has
    // joined (active or inactive). Invitations are not accounts: another organization may invite an email that has an
    // account, and the invitation says nothing of it to the admin (docs/decisions/2026-11-25-abuse-resistance.md);
    // only accepting it would make a second account, which this index refuses.
    uniqueIndex("users_email_unique").on(t.email).where(sql`${t.status} <> 'invited'`),
    // One organization never holds an email twice; it also finds an email's rows whatever their status.
    uniqueIndex("users_email_org_unique").on(t.email, t.organizationId),
    index("users_org_created_idx").on(t.organizationId, t.createdAt),
  ],
);

/**
 * Invitations: the invited person is already a users row (status invited, so they count toward seats and show in the
 * team list); this holds the single-use link, as the sha256 of its token.
 */
export const invitations = pgTable(
  "invitations",
  {
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    invitedBy: refSetNull("invited_by", () => users.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_unique").on(t.tokenHash),
    index("invitations_org_user_idx").on(t.organizationId, t.userId),
  ],
);
