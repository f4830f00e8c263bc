import { randomUUID } from "node:crypto";
import {
  type ConnectMailboxBody,
  MAILBOXES_PER_ORGANIZATION,
  type Mailbox,
  type MailboxStatus,
  type UpdateMailboxBody,
} from "@cove/contract/mailboxes.ts";
import { sql } from "drizzle-orm";
import { audit } from "../../platform/audit.ts";
import type { RequestTx } from "../../platform/auth.ts";
import { queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { type Secrets, SecretUnreadable } from "../../platform/secrets.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { type ConnectOptions, checkMailbox } from "./mailbox.connection.ts";
import { MAILBOX_IMPORT_QUEUE } from "./mailbox.import.ts";

export interface MailboxDeps {
  jobs: Jobs;
  secrets: Secrets;
  connect: ConnectOptions;
}

interface Row {
  id: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  folder: string;
  status: MailboxStatus;
  last_error: string | null;
  remaining: number;
  imported: number;
  skipped: number;
  failed: number;
  run_done: number;
  run_seconds: number | null;
  created_at: Date | string;
  checked_at: Date | string | null;
  history_done_at: Date | string | null;
}

const COLUMNS = sql`id, host, port, tls, username, folder, status, last_error, remaining, imported, skipped, failed,
                    run_done, extract(epoch from now() - run_started_at)::float8 as run_seconds, created_at,
                    checked_at, history_done_at`;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function shape(r: Row): Mailbox {
  const done = r.imported + r.skipped + r.failed;
  // The pace of the current run (since connecting or resuming): a restart is measured afresh.
  const perSecond =
    r.status === "importing" && r.run_done > 0 && r.run_seconds && r.run_seconds > 1
      ? r.run_done / r.run_seconds
      : null;
  return {
    id: r.id,
    host: r.host,
    port: r.port,
    tls: r.tls,
    user: r.username,
    folder: r.folder,
    status: r.status,
    last_error: r.last_error,
    progress: {
      total: done + r.remaining,
      imported: r.imported,
      skipped: r.skipped,
      failed: r.failed,
      remaining: r.remaining,
      per_second: perSecond === null ? null : Math.round(perSecond * 10) / 10,
      eta_seconds: perSecond && r.remaining > 0 ? Math.ceil(r.remaining / perSecond) : null,
    },
    connected_at: new Date(r.created_at).toISOString(),
    checked_at: iso(r.checked_at),
    history_done_at: iso(r.history_done_at),
  };
}

export async function listMailboxes(ctx: Ctx): Promise<Mailbox[]> {
  const rows = await queryRows<Row>(
    ctx.db,
    sql`select ${COLUMNS} from email_mailboxes where organization_id = ${ctx.orgId} order by created_at, id`,
  );
  return rows.map(shape);
}

const mailboxObject = (id: string, user: string, host: string) => ({ type: "mailbox", id, label: `${user} @ ${host}` });

async function readMailbox(ctx: Ctx, id: string): Promise<Mailbox> {
  const [row] = await queryRows<Row>(
    ctx.db,
    sql`select ${COLUMNS} from email_mailboxes where organization_id = ${ctx.orgId} and id = ${id}`,
  );
  if (!row) throw notFound("Mailbox");
  return shape(row);
}

/**
 * Connects a mailbox: the server is tried first (sign in, open the folder), so a wrong password or an unreachable
 * host is said at once, and only then is the mailbox saved, its password sealed, and its import started.
 */
export async function connectMailbox(
  deps: MailboxDeps,
  tx: RequestTx<Ctx>,
  input: ConnectMailboxBody & { folder: string },
) {
  await tx(async (ctx) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from email_mailboxes where organization_id = ${ctx.orgId} and status <> 'cancelled'`,
    );
    if ((row?.n ?? 0) >= MAILBOXES_PER_ORGANIZATION) {
      throw new AppError(
        "CONFLICT",
        `At most ${MAILBOXES_PER_ORGANIZATION} mailboxes can be connected: remove one first.`,
      );
    }
  });
  await checkMailbox({ ...input }, deps.connect);
  return tx(async (ctx) => {
    const id = randomUUID();
    await queryRows(
      ctx.db,
      sql`insert into email_mailboxes (id, organization_id, host, port, tls, username, password_sealed, folder, status,
                                       run_started_at)
          values (${id}, ${ctx.orgId}, ${input.host}, ${input.port}, ${input.tls}, ${input.user},
                  ${deps.secrets.seal(input.password, id)}, ${input.folder}, 'importing', now())`,
    );
    await deps.jobs.send(ctx.db, MAILBOX_IMPORT_QUEUE, { orgId: ctx.orgId, mailboxId: id });
    await audit(ctx, "mailbox.connected", mailboxObject(id, input.user, input.host), { folder: input.folder });
    return readMailbox(ctx, id);
  });
}

/**
 * New sign-in details (or the same ones again after the server refused them): tried first like a new mailbox. Another
 * server, account or folder is another mailbox, imported from its start (what was filed already is skipped); the same
 * one goes on where it stopped.
 */
export async function updateMailbox(
  deps: MailboxDeps,
  tx: RequestTx<Ctx>,
  id: string,
  input: UpdateMailboxBody & { folder: string },
) {
  const current = await tx(async (ctx) => {
    const [row] = await queryRows<{
      host: string;
      port: number;
      username: string;
      folder: string;
      password_sealed: string | null;
    }>(
      ctx.db,
      sql`select host, port, username, folder, password_sealed from email_mailboxes
          where organization_id = ${ctx.orgId} and id = ${id}`,
    );
    if (!row) throw notFound("Mailbox");
    return row;
  });
  let password = input.password ?? "";
  if (!password) {
    const missing = () =>
      new AppError("VALIDATION_ERROR", "Enter the password", [{ path: "password", message: "Enter the password" }]);
    if (!current.password_sealed) throw missing();
    try {
      password = deps.secrets.open(current.password_sealed, id);
    } catch (err) {
      if (err instanceof SecretUnreadable) throw missing();
      throw err;
    }
  }
  const access = { ...input, password };
  await checkMailbox(access, deps.connect);
  const another =
    current.host !== input.host ||
    current.port !== input.port ||
    current.username !== input.user ||
    current.folder !== input.folder;
  return tx(async (ctx) => {
    const [row] = await queryRows<{ id: string }>(
      ctx.db,
      sql`update email_mailboxes set host = ${input.host}, port = ${input.port}, tls = ${input.tls},
            username = ${input.user}, folder = ${input.folder}, password_sealed = ${deps.secrets.seal(password, id)},
            last_error = null, run_started_at = now(), run_done = 0, lease_owner = null, lease_until = null,
            updated_at = now(),
            ${
              another
                ? sql`uid_validity = null, history_before_uid = null, last_uid = 0, remaining = 0, imported = 0,
                      skipped = 0, failed = 0, history_done_at = null, status = 'importing'`
                : sql`status = case when history_done_at is null then 'importing' else 'watching' end`
            }
          where organization_id = ${ctx.orgId} and id = ${id}
          returning id`,
    );
    if (!row) throw notFound("Mailbox");
    await deps.jobs.send(ctx.db, MAILBOX_IMPORT_QUEUE, { orgId: ctx.orgId, mailboxId: id });
    await audit(ctx, "mailbox.changed", mailboxObject(id, input.user, input.host), { folder: input.folder, another });
    return readMailbox(ctx, id);
  });
}

/** Pause: the worker stops at the next message. The message being filed finishes or is rolled back, never half done. */
export async function pauseMailbox(ctx: Ctx, id: string): Promise<Mailbox> {
  const current = await readMailbox(ctx, id);
  if (current.status === "cancelled") throw new AppError("CONFLICT", "This import was cancelled: connect it again.");
  await queryRows(
    ctx.db,
    sql`update email_mailboxes set status = 'paused', last_error = null, updated_at = now()
        where organization_id = ${ctx.orgId} and id = ${id} and status in ('importing', 'watching')`,
  );
  return readMailbox(ctx, id);
}

/** Resume: where it stopped, measuring the pace afresh. */
export async function resumeMailbox(deps: Pick<MailboxDeps, "jobs">, ctx: Ctx, id: string): Promise<Mailbox> {
  const current = await readMailbox(ctx, id);
  if (current.status === "cancelled") throw new AppError("CONFLICT", "This import was cancelled: connect it again.");
  await queryRows(
    ctx.db,
    sql`update email_mailboxes
        set status = case when history_done_at is null then 'importing' else 'watching' end, last_error = null,
            run_started_at = now(), run_done = 0, updated_at = now()
        where organization_id = ${ctx.orgId} and id = ${id} and status = 'paused'`,
  );
  await deps.jobs.send(ctx.db, MAILBOX_IMPORT_QUEUE, { orgId: ctx.orgId, mailboxId: id });
  return readMailbox(ctx, id);
}

/** Cancel: nothing more is fetched and the password is forgotten; what was imported stays, as do the counts. */
export async function cancelMailbox(ctx: Ctx, id: string): Promise<Mailbox> {
  const mailbox = await readMailbox(ctx, id);
  await queryRows(
    ctx.db,
    sql`update email_mailboxes set status = 'cancelled', password_sealed = null, remaining = 0, last_error = null,
          lease_owner = null, lease_until = null, updated_at = now()
        where organization_id = ${ctx.orgId} and id = ${id}`,
  );
  if (mailbox.status !== "cancelled") {
    await audit(ctx, "mailbox.changed", mailboxObject(id, mailbox.user, mailbox.host), { status: "cancelled" });
  }
  return readMailbox(ctx, id);
}

/** Removes the mailbox and its password; the tickets it made stay. */
export async function removeMailbox(ctx: Ctx, id: string): Promise<void> {
  const [row] = await queryRows<{ id: string; username: string; host: string }>(
    ctx.db,
    sql`delete from email_mailboxes where organization_id = ${ctx.orgId} and id = ${id} returning id, username, host`,
  );
  if (!row) throw notFound("Mailbox");
  await audit(ctx, "mailbox.removed", mailboxObject(id, row.username, row.host));
}
