import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";

/**
 * The customer portal's emailed sign-in links. Only the token's sha256 is stored; a link works once, until expires_at.
 * Every request leaves a row, whether or not the email belongs to a contact yet, so the same rows throttle requests per
 * email (within the organization) and per address.
 */
export const portalSignInLinks = pgTable(
  "portal_sign_in_links",
  {
    ...tenantRow(),
    /** Lower-cased. */
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address that asked for it (throttling). */
    ip: text("ip").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("portal_sign_in_links_token_hash_unique").on(t.tokenHash),
    index("portal_sign_in_links_org_email_idx").on(t.organizationId, t.email, t.createdAt),
    // Throttling by address looks across organizations (one address asking every help desk for links), before any
    // organization is confined, like the sign-in failures table.
    index("portal_sign_in_links_ip_idx").on(t.ip, t.createdAt),
  ],
);
