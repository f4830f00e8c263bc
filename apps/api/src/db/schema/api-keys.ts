import { API_KEY_SCOPES } from "@cove/contract/settings.ts";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, refSetNull, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";
import { users } from "./users.ts";

/** Keys for the public API: the token is shown once; only its sha256 is stored. */
export const apiKeys = pgTable(
  "api_keys",
  {
    ...tenantRow(),
    name: text("name").notNull(),
    scope: text("scope", { enum: API_KEY_SCOPES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, shown in the list. */
    prefix: text("prefix").notNull(),
    createdBy: refSetNull("created_by", () => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash_unique").on(t.tokenHash),
    index("api_keys_org_created_idx").on(t.organizationId, t.createdAt),
  ],
);
