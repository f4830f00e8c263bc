import {
  AUDIT_CSV_MAX,
  AUDIT_RETENTION_DAYS,
  type AuditActorsAnswer,
  type AuditEntry,
  type AuditListAnswer,
  type AuditVerifyAnswer,
  auditActionLabel,
  type auditFilterQuery,
  type auditListQuery,
} from "@cove/contract/audit.ts";
import { and, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { auditLog } from "../../db/schema/audit.ts";
import { verifyChain } from "../../platform/audit.ts";
import { csvLine } from "../../platform/csv.ts";
import type { ExecuteSql } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";

type Filters = z.output<typeof auditFilterQuery>;
type Row = typeof auditLog.$inferSelect;

const DAY = 24 * 60 * 60 * 1000;
const dateOnly = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

/** The filters as conditions: a date alone means its whole day (UTC) at either end. */
function conditions(ctx: Ctx, f: Filters): SQL[] {
  const where: SQL[] = [eq(auditLog.organizationId, ctx.orgId)];
  if (f.actor_type) where.push(eq(auditLog.actorType, f.actor_type));
  if (f.actor_id) where.push(eq(auditLog.actorId, f.actor_id));
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.from) where.push(gte(auditLog.createdAt, new Date(f.from)));
  if (f.to) {
    where.push(
      dateOnly(f.to)
        ? lt(auditLog.createdAt, new Date(Date.parse(f.to) + DAY))
        : lte(auditLog.createdAt, new Date(f.to)),
    );
  }
  return where;
}

function toEntry(r: Row): AuditEntry {
  return {
    id: String(r.id),
    created_at: r.createdAt.toISOString(),
    actor: { type: r.actorType, id: r.actorId, name: r.actorName },
    action: r.action,
    object: r.objectType ? { type: r.objectType, id: r.objectId, label: r.objectLabel } : null,
    address: r.address,
    details: r.details,
  };
}

/** A page of the organization's entries, newest first; next_cursor reads on from the last one. */
export async function listEntries(ctx: Ctx, q: z.output<typeof auditListQuery>): Promise<AuditListAnswer> {
  const where = conditions(ctx, q);
  if (q.cursor) where.push(lt(auditLog.id, Number(q.cursor)));
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { entries: page.map(toEntry), next_cursor: rows.length > q.limit && last ? String(last.id) : null };
}

/** Everyone who appears in the log, for the actor filter (by their latest name). */
export async function listActors(ctx: Ctx): Promise<AuditActorsAnswer> {
  const rows = await ctx.db
    .selectDistinctOn([auditLog.actorType, auditLog.actorId], {
      type: auditLog.actorType,
      id: auditLog.actorId,
      name: auditLog.actorName,
    })
    .from(auditLog)
    .where(eq(auditLog.organizationId, ctx.orgId))
    .orderBy(auditLog.actorType, auditLog.actorId, desc(auditLog.id))
    .limit(1000);
  return { actors: rows.sort((a, b) => a.name.localeCompare(b.name)) };
}

const CSV_HEADER = [
  "Time (UTC)",
  "Actor type",
  "Actor ID",
  "Actor",
  "Action",
  "Action name",
  "Object type",
  "Object ID",
  "Object",
  "Address",
  "Details",
];

/** The filtered entries as CSV (newest first, at most AUDIT_CSV_MAX), with a header row. */
export async function entriesCsv(ctx: Ctx, f: Filters): Promise<string> {
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(and(...conditions(ctx, f)))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_CSV_MAX);
  const lines = [csvLine(CSV_HEADER)];
  for (const r of rows) {
    lines.push(
      csvLine([
        r.createdAt.toISOString(),
        r.actorType,
        r.actorId,
        r.actorName,
        auditActionLabel(r.action),
        r.action,
        r.objectType,
        r.objectId,
        r.objectLabel,
        r.address,
        JSON.stringify(r.details),
      ]),
    );
  }
  return lines.join("");
}

export const verify = (ctx: Ctx): Promise<AuditVerifyAnswer> => verifyChain(ctx.db, ctx.orgId);

/**
 * Deletes entries older than the retention period, in every organization. It runs as the owner role (the app's role
 * may not delete entries): outside any request, through the database's own client.
 */
export async function purgeOldEntries(executeSql: ExecuteSql): Promise<number> {
  const result = await executeSql(
    `delete from audit_log where created_at < now() - make_interval(days => ${AUDIT_RETENTION_DAYS})`,
  );
  return result.rowCount;
}
