import { API_KEY_SCOPES } from "@cove/contract/settings.ts";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

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
