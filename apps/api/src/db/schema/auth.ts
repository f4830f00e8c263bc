import { bigint, bigserial, boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, refCascade, timestamptz, updatedAt } from "./columns.ts";
import { organizationId, tenantRow } from "./organizations.ts";
import { users } from "./users.ts";

export const sessions = pgTable(
  "sessions",
  {
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    /** sha256 of the bearer token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    /** The browser's User-Agent at sign-in (cut to 512 characters), shown as "Chrome on macOS" in the session list. */
    userAgent: text("user_agent"),
    /** The client's address at sign-in, as the throttles count it (platform/client-address.ts). */
    ip: text("ip"),
    /** Last request made with the session, written at most once a minute (platform/auth.ts). */
    lastSeenAt: timestamptz("last_seen_at"),
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
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("password_reset_tokens_hash_unique").on(t.tokenHash),
    index("password_reset_tokens_org_user_idx").on(t.organizationId, t.userId),
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

/**
 * A member's TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s). The secret is sealed under SECRETS_KEY, bound to
 * the user's id. enabledAt is null while set-up waits for its first code. lastUsedStep is the time step of the last
 * code accepted: a code is taken only for a later step, in one conditional update, so it is never accepted twice.
 */
export const twoFactor = pgTable("two_factor", {
  userId: refCascade("user_id", () => users.id).primaryKey(),
  organizationId: organizationId(),
  secretSealed: text("secret_sealed").notNull(),
  enabledAt: timestamptz("enabled_at"),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Single-use recovery codes of a member's second factor: sha256 of the user's id and the code, never the code. */
export const twoFactorRecoveryCodes = pgTable(
  "two_factor_recovery_codes",
  {
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("two_factor_recovery_codes_user_hash_unique").on(t.userId, t.codeHash)],
);

/**
 * A sign-in whose password was right, waiting for its second factor: the sha256 of the challenge token the client
 * holds, short-lived, spent by the sign-in it completes.
 */
export const twoFactorChallenges = pgTable(
  "two_factor_challenges",
  {
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    tokenHash: text("token_hash").notNull(),
    rememberMe: boolean("remember_me").notNull().default(false),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("two_factor_challenges_hash_unique").on(t.tokenHash),
    index("two_factor_challenges_expires_idx").on(t.expiresAt),
  ],
);
