import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DataExport } from "@cove/contract/settings.ts";
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { organizationExports, organizations } from "../../db/schema/organizations.ts";
import { audit } from "../../platform/audit.ts";
import { type Db, queryRows, type Tx } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { type Ctx, withSystem, withVisitor } from "../../platform/tenancy.ts";

/**
 * The organization's data export (GDPR; docs/product.md, "Beyond the brief"): a ZIP with one JSON file per table of everything the
 * organization owns. The tables are found, not listed: every table with an organization_id column that the request
 * role may read, so a table added later is exported without anyone remembering to. It runs under row-level security
 * (withVisitor), so it can only ever read the organization's own rows. Secrets (password and token hashes), search
 * vectors and binary columns are left out, and so are sessions and derived tallies.
 */

export const EXPORT_QUEUE: JobQueue<{ exportId: string; orgId: string }> = {
  name: "organization-export",
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 30 * 60,
};

/**
 * Not the organization's data: sign-in state, counters kept by triggers, the assistant's vectors of the articles
 * (derived from them, and binary), and the exports themselves.
 */
const SKIPPED_TABLES = new Set([
  "sessions",
  "password_reset_tokens",
  "two_factor",
  "two_factor_recovery_codes",
  "two_factor_challenges",
  "data_versions",
  "ticket_totals",
  "ticket_tallies",
  "ai_sentence_vectors",
  "organization_exports",
]);
const SECRET_COLUMN = /(^|_)(hash|secret|password|token)(_|$)/;
const SKIPPED_TYPES = new Set(["tsvector", "bytea"]);
const PAGE = 1000;
/** An export still queued (its job not yet taken) this long is taken for lost, and a new one may start. */
const STALE_MS = 60 * 60_000;
/**
 * A running export's claim: the process that runs it renews it every third of this; a claim not renewed in time is
 * dead work (its process crashed or was killed), and a new export may start at once.
 */
const LEASE_SECONDS = 60;
/** This process, once per start: host, pid, and a boot id (a pid can come back after a restart). */
export const EXPORT_OWNER = `${hostname()}:${process.pid}:${randomUUID()}`;
const INTERRUPTED = "The export was interrupted. Please try again.";

type Row = typeof organizationExports.$inferSelect;

const toExport = (r: Omit<Row, "leaseOwner" | "leaseUntil">): DataExport => ({
  id: r.id,
  status: r.status,
  progress: r.progress,
  created_at: r.createdAt.toISOString(),
  finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
  size_bytes: r.sizeBytes,
  error: r.error,
});

const columns = {
  id: organizationExports.id,
  organizationId: organizationExports.organizationId,
  status: organizationExports.status,
  progress: organizationExports.progress,
  requestedBy: organizationExports.requestedBy,
  contactId: organizationExports.contactId,
  sizeBytes: organizationExports.sizeBytes,
  error: organizationExports.error,
  createdAt: organizationExports.createdAt,
  finishedAt: organizationExports.finishedAt,
};

/** Whose export: the whole organization's (null), or one customer's (a contact id). */
const ofScope = (contactId: string | null) =>
  contactId === null ? isNull(organizationExports.contactId) : eq(organizationExports.contactId, contactId);

/**
 * One customer's data for their export (GDPR articles 15 and 20), read in the job's transaction under row-level
 * security: the ZIP's files by name. Given by the composition root (the privacy module builds it from the modules that
 * own the data), so this module does not depend on them.
 */
export type ContactExportBuilder = (
  ctx: Pick<Ctx, "orgId" | "db">,
  contactId: string,
) => Promise<Record<string, Uint8Array>>;

/** The latest export of the organization's data, or of one customer's (contactId). */
export async function latestExport(ctx: Ctx, contactId: string | null = null): Promise<DataExport | null> {
  const [row] = await ctx.db
    .select(columns)
    .from(organizationExports)
    .where(and(eq(organizationExports.organizationId, ctx.orgId), ofScope(contactId)))
    .orderBy(desc(organizationExports.createdAt))
    .limit(1);
  return row ? toExport({ ...row, data: null }) : null;
}

/** Starts an export (of everything, or of one customer's data: contactId), or answers the one already under way. */
export async function requestExport(ctx: Ctx, jobs: Jobs, contactId: string | null = null): Promise<DataExport> {
  // The organization's row lock: two clicks make one export.
  await ctx.db.execute(sql`select id from organizations where id = ${ctx.orgId} for no key update`);
  const current = await latestExport(ctx, contactId);
  if (current && (current.status === "queued" || current.status === "running")) {
    const [live] = await queryRows<{ live: boolean }>(
      ctx.db,
      sql`select (status = 'queued' and created_at > now() - ${`${STALE_MS} milliseconds`}::interval)
                 or (status = 'running' and lease_until > now()) as live
          from organization_exports where id = ${current.id} and organization_id = ${ctx.orgId}`,
    );
    if (live?.live) return current;
    // Dead work (its process is gone): said so, and a new export starts.
    await ctx.db
      .update(organizationExports)
      .set({ status: "failed", error: INTERRUPTED, finishedAt: new Date(), leaseOwner: null, leaseUntil: null })
      .where(exportRow(ctx.orgId, current.id));
  }
  const [created] = await ctx.db
    .insert(organizationExports)
    .values({ organizationId: ctx.orgId, requestedBy: ctx.userId, contactId })
    .returning(columns);
  if (!created) throw new Error("export insert returned nothing");
  await jobs.send(ctx.db, EXPORT_QUEUE, { exportId: created.id, orgId: ctx.orgId });
  await audit(
    ctx,
    contactId === null ? "export.started" : "contact.export_started",
    contactId === null
      ? { type: "export", id: created.id, label: null }
      : { type: "contact", id: contactId, label: null },
  );
  return toExport({ ...created, data: null });
}

export async function exportFile(
  ctx: Ctx,
  id: string,
  contactId: string | null = null,
): Promise<{ bytes: Buffer; filename: string }> {
  const missing = () => notFound("Export");
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw missing();
  const [row] = await ctx.db
    .select({ data: organizationExports.data, createdAt: organizationExports.createdAt, slug: organizations.slug })
    .from(organizationExports)
    .innerJoin(organizations, eq(organizations.id, organizationExports.organizationId))
    .where(
      and(
        eq(organizationExports.organizationId, ctx.orgId),
        eq(organizationExports.id, id),
        eq(organizationExports.status, "done"),
        ofScope(contactId),
      ),
    );
  if (!row?.data) throw missing();
  const day = row.createdAt.toISOString().slice(0, 10);
  const name = contactId === null ? `cove-export-${row.slug}` : `cove-customer-export-${row.slug}`;
  await audit(
    ctx,
    contactId === null ? "export.downloaded" : "contact.export_downloaded",
    contactId === null ? { type: "export", id, label: null } : { type: "contact", id: contactId, label: null },
    { size_bytes: row.data.length },
  );
  return { bytes: row.data, filename: `${name}-${day}.zip` };
}

/** Drops a customer's exports (erasing the customer: they hold a copy of what is erased), in the caller's transaction. */
export async function dropContactExports(ctx: Pick<Ctx, "orgId" | "db">, contactId: string): Promise<void> {
  await ctx.db
    .delete(organizationExports)
    .where(and(eq(organizationExports.organizationId, ctx.orgId), eq(organizationExports.contactId, contactId)));
}

interface TableInfo {
  name: string;
  columns: string[];
  hasId: boolean;
}

/** The tables the request role can read that belong to organizations, with the columns worth exporting. */
async function exportableTables(tx: Tx): Promise<TableInfo[]> {
  const rows = await queryRows<{ table: string; column: string; type: string }>(
    tx,
    sql`select c.table_name as "table", c.column_name as "column", c.data_type as "type"
        from information_schema.columns c
        where c.table_schema = 'public'
          and exists (select 1 from information_schema.columns o
                      where o.table_schema = 'public' and o.table_name = c.table_name
                        and o.column_name = 'organization_id')
          and has_table_privilege(current_user, format('%I.%I', c.table_schema, c.table_name), 'SELECT')
        order by c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, TableInfo>();
  for (const r of rows) {
    if (SKIPPED_TABLES.has(r.table)) continue;
    const t = tables.get(r.table) ?? { name: r.table, columns: [], hasId: false };
    if (r.column === "id") t.hasId = true;
    if (!SECRET_COLUMN.test(r.column) && !SKIPPED_TYPES.has(r.type)) t.columns.push(r.column);
    tables.set(r.table, t);
  }
  return [...tables.values()];
}

const list = (names: string[]) =>
  sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );

async function readPage(tx: Tx, orgId: string, t: TableInfo, after: string | null): Promise<Record<string, unknown>[]> {
  const rows = await queryRows<{ row: Record<string, unknown> }>(
    tx,
    sql`select to_jsonb(x) as row from (select ${list(t.columns)} from ${sql.identifier(t.name)}
          where organization_id = ${orgId}
          ${t.hasId && after ? sql`and id > ${after}` : sql``}
          ${t.hasId ? sql`order by id limit ${PAGE}` : sql``}) x`,
  );
  return rows.map((r) => r.row);
}

/** The organization's export of that id (CODE_STYLE.md, "Queries": every statement names the organization). */
const exportRow = (orgId: string, id: string) =>
  and(eq(organizationExports.organizationId, orgId), eq(organizationExports.id, id));

async function setProgress(db: Db, orgId: string, exportId: string, values: Partial<Row>) {
  await withVisitor(db, orgId, (v) => v.db.update(organizationExports).set(values).where(exportRow(orgId, exportId)));
}

/**
 * Claims an export for this process: a queued one, or a running one whose claim has lapsed. False when another process
 * holds it or it has ended (a job delivered twice, or retried after the export was resumed at a restart).
 */
async function claim(db: Db, orgId: string, exportId: string): Promise<{ contactId: string | null } | null> {
  const rows = await withVisitor(db, orgId, (v) =>
    queryRows<{ contactId: string | null }>(
      v.db,
      sql`update organization_exports
            set status = 'running', progress = 0, error = null,
                lease_owner = ${EXPORT_OWNER}, lease_until = now() + ${`${LEASE_SECONDS} seconds`}::interval
          where id = ${exportId} and organization_id = ${orgId}
            and (status = 'queued' or (status = 'running' and (lease_until is null or lease_until < now())))
          returning contact_id as "contactId"`,
    ),
  );
  return rows[0] ?? null;
}

/** Renews this process's claim while the export runs, until stopped. */
function keepClaim(db: Db, orgId: string, exportId: string): () => void {
  const timer = setInterval(
    () => {
      withVisitor(db, orgId, (v) =>
        v.db.execute(
          sql`update organization_exports set lease_until = now() + ${`${LEASE_SECONDS} seconds`}::interval
              where id = ${exportId} and organization_id = ${orgId} and lease_owner = ${EXPORT_OWNER}
                and status = 'running'`,
        ),
      ).catch(() => undefined);
    },
    (LEASE_SECONDS * 1000) / 3,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** The organization's files: read table by table, with progress after each page. */
async function organizationFiles(db: Db, orgId: string, exportId: string): Promise<Record<string, Uint8Array>> {
  const { tables, counts, organization } = await withVisitor(db, orgId, async (v) => {
    const found = await exportableTables(v.db);
    const counts = new Map<string, number>();
    for (const t of found) {
      const [c] = await queryRows<{ n: number }>(
        v.db,
        sql`select count(*)::int as n from ${sql.identifier(t.name)} where organization_id = ${orgId}`,
      );
      counts.set(t.name, c?.n ?? 0);
    }
    const [org] = await queryRows<{ row: Record<string, unknown> }>(
      v.db,
      sql`select to_jsonb(o) - 'ticket_seq' as row from organizations o where id = ${orgId}`,
    );
    return { tables: found, counts, organization: org?.row ?? null };
  });
  const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
  let done = 0;
  const files: Record<string, Uint8Array> = {
    "organization.json": strToU8(JSON.stringify(organization, null, 2)),
  };
  for (const t of tables) {
    const rows: Record<string, unknown>[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await withVisitor(db, orgId, (v) => readPage(v.db, orgId, t, after));
      rows.push(...page);
      done += page.length;
      if (!t.hasId || page.length < PAGE) break;
      after = String(page.at(-1)?.id);
      await setProgress(db, orgId, exportId, { progress: Math.min(95, Math.floor((done / total) * 95)) });
    }
    files[`${t.name}.json`] = strToU8(JSON.stringify(rows, null, 2));
    await setProgress(db, orgId, exportId, { progress: Math.min(95, Math.floor((done / total) * 95)) });
  }
  files["README.txt"] = strToU8(
    "Your organization's data, exported from Cove: one JSON file per kind of record, each a list of rows.\n" +
      "Passwords, sign-in tokens and API key hashes are never exported.\n",
  );
  return files;
}

/**
 * The export job: the organization's tables, or one customer's data (made by contactExport, in one transaction under
 * row-level security), zipped and stored.
 */
export async function runExport(
  db: Db,
  exportId: string,
  orgId: string,
  contactExport?: ContactExportBuilder,
): Promise<void> {
  const claimed = await claim(db, orgId, exportId);
  if (!claimed) return;
  const release = keepClaim(db, orgId, exportId);
  try {
    const { contactId } = claimed;
    let files: Record<string, Uint8Array>;
    if (contactId === null) files = await organizationFiles(db, orgId, exportId);
    else if (contactExport) files = await withVisitor(db, orgId, (v) => contactExport(v, contactId));
    else throw new Error("no builder for a customer's export");
    const zip = Buffer.from(zipSync(files, { level: 6 }));
    release();
    const finished = {
      status: "done",
      progress: 100,
      data: zip,
      sizeBytes: zip.length,
      finishedAt: new Date(),
    } as const;
    await withSystem(db, orgId, "data-export", async (ctx) => {
      await ctx.db
        .update(organizationExports)
        .set({ ...finished, leaseOwner: null, leaseUntil: null })
        .where(exportRow(orgId, exportId));
      await audit(ctx, "export.completed", { type: "export", id: exportId, label: null }, { size_bytes: zip.length });
    });
  } catch (err) {
    release();
    await setProgress(db, orgId, exportId, {
      status: "failed",
      error: "The export could not be completed. Please try again.",
      finishedAt: new Date(),
      leaseOwner: null,
      leaseUntil: null,
    }).catch(() => undefined);
    throw err;
  }
}

/** True when the claim's process is certainly gone: on this host, its pid no longer runs (or runs a later boot). */
export function ownerIsGone(owner: string, host = hostname()): boolean {
  const [ownerHost, pid] = owner.split(":");
  if (ownerHost !== host) return false;
  if (owner === EXPORT_OWNER) return false;
  if (Number(pid) === process.pid) return true;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user has that pid now; it is not ours either way, but leave it to the lease.
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * At start, this process's own dead work: exports left running by a crashed or killed earlier start (every other
 * claim on the embedded database, which one process holds; on PostgreSQL, claims of this host whose process is gone,
 * while other hosts' lapse with their lease). Each is queued again and resumed from the start at once.
 */
export async function resumeDeadExports(db: Db, jobs: Jobs, embedded: boolean): Promise<number> {
  const running = await queryRows<{ id: string; orgId: string; owner: string | null }>(
    db,
    sql`select id, organization_id as "orgId", lease_owner as owner from organization_exports where status = 'running'`,
  );
  const dead = running.filter(
    (r) => r.owner !== EXPORT_OWNER && (embedded || r.owner === null || ownerIsGone(r.owner)),
  );
  for (const r of dead) {
    await db.transaction(async (tx) => {
      const [requeued] = await queryRows<{ id: string }>(
        tx,
        sql`update organization_exports set status = 'queued', progress = 0, lease_owner = null, lease_until = null
            where id = ${r.id} and status = 'running' and lease_owner is not distinct from ${r.owner}
            returning id`,
      );
      if (requeued) await jobs.send(tx, EXPORT_QUEUE, { exportId: r.id, orgId: r.orgId });
    });
  }
  return dead.length;
}

/** Drops exports finished before a time (they hold a copy of everything; kept 7 days). */
export async function purgeExports(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(organizationExports)
    .where(and(lt(organizationExports.createdAt, before), inArray(organizationExports.status, ["done", "failed"])))
    .returning({ id: organizationExports.id });
  return gone.length;
}

export function registerExportJob(jobs: Jobs, db: Db, contactExport?: ContactExportBuilder): void {
  jobs.work(EXPORT_QUEUE, ({ exportId, orgId }) => runExport(db, exportId, orgId, contactExport));
}
