import type { SessionsAnswer } from "@cove/contract/security.ts";
import Bowser from "bowser";
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { sessions } from "../../db/schema/auth.ts";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { endUserSessions } from "./auth.service.ts";

/**
 * "Where you're signed in": a member's own sessions, and signing them out. A session's row is what every request
 * checks (the tenant transaction's statement, platform/tenancy.ts), so a deleted one answers 401 at once, on every
 * instance, whatever the session cache holds.
 */

/** "Chrome on macOS" from a User-Agent; the browser or the system alone when only one is known. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.trim();
  const os = parsed.os.name?.trim();
  const name = browser && os ? `${browser} on ${os}` : (browser ?? os ?? "Unknown device");
  return name.slice(0, 100);
}

export async function listSessions(ctx: Ctx, currentSessionId: string): Promise<SessionsAnswer> {
  const rows = await ctx.db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(eq(sessions.organizationId, ctx.orgId), eq(sessions.userId, ctx.userId), gt(sessions.expiresAt, new Date())),
    )
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id));
  return {
    sessions: rows.map((s) => ({
      id: s.id,
      current: s.id === currentSessionId,
      device: deviceName(s.userAgent),
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
    })),
  };
}

/** Signs out one of the member's own sessions (the current one too: that is signing out). Another's: not found. */
export async function revokeSession(ctx: Ctx, sessionId: string): Promise<void> {
  const gone = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.organizationId, ctx.orgId), eq(sessions.userId, ctx.userId)))
    .returning({ id: sessions.id });
  if (gone.length === 0) throw notFound("Session");
  await audit(ctx, "session.revoked", { type: "session", id: sessionId, label: null });
}

/** Signs out every session of the member but this one; answers how many ended. */
export async function revokeOtherSessions(ctx: Ctx, currentSessionId: string): Promise<number> {
  const gone = await ctx.db
    .delete(sessions)
    .where(
      and(eq(sessions.organizationId, ctx.orgId), eq(sessions.userId, ctx.userId), ne(sessions.id, currentSessionId)),
    )
    .returning({ id: sessions.id });
  await audit(ctx, "session.others_revoked", null, { count: gone.length });
  return gone.length;
}

/** An admin signs a member of their organization out everywhere (another organization's member: not found). */
export async function signOutMember(ctx: Ctx, memberId: string): Promise<void> {
  const [member] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, memberId), eq(users.organizationId, ctx.orgId)));
  if (!member) throw notFound("User");
  await endUserSessions(ctx.db, ctx.orgId, member.id);
  await audit(ctx, "member.signed_out_everywhere", { type: "member", id: member.id, label: member.email });
}
