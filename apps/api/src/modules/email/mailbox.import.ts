import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { INBOUND_MAX_BYTES } from "@cove/contract/email.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ImapFlow } from "imapflow";
import { type Db, queryRows, type Tx } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { type Secrets, SecretUnreadable } from "../../platform/secrets.ts";
import { withSystem } from "../../platform/tenancy.ts";
import { FilingAborted, type InboundOutcome, receiveMail, refuseMail } from "./email.inbound.ts";
import { type ConnectOptions, openMailbox } from "./mailbox.connection.ts";

/**
 * The mailbox import (docs/decisions/2026-11-25-mailbox-import.md). One job files at most one batch of messages of one
 * mailbox, fetched by UID in order and downloaded one at a time, then hands over to the next job; a schedule looks for
 * new mail every minute. Each message moves the mailbox's progress (last UID, counts) in the very transaction that
 * files it, so whatever stops the work (a pause, a crash, a kill) leaves progress exactly at the last message filed.
 */

export interface MailboxJob {
  orgId: string;
  mailboxId: string;
}

export const MAILBOX_IMPORT_QUEUE: JobQueue<MailboxJob> = {
  name: "mailbox-import",
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

export const MAILBOX_POLL_QUEUE: JobQueue<object> = {
  name: "mailbox-poll",
  retryLimit: 0,
  retryDelaySeconds: 30,
  retryBackoff: false,
  expireInSeconds: 5 * 60,
};

export interface ImportDeps {
  db: Db;
  jobs: Jobs;
  secrets: Secrets;
  connect: ConnectOptions;
  log: FastifyBaseLogger;
  /** Messages per job. */
  batchSize: number;
  /** How long a worker's claim on a mailbox lasts without news (renewed by every message). */
  leaseSeconds: number;
}

/** Attempts at one message that keeps failing (not for anything in it: the database or the connection) before it is counted failed. */
const ATTEMPTS_PER_MESSAGE = 3;
/** The first bytes kept of a message refused for its size, so an admin can see what it was. */
const REFUSED_HEAD_BYTES = 64 * 1024;

interface Claimed {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password_sealed: string;
  folder: string;
  uid_validity: string | number | null;
  history_before_uid: string | number | null;
  last_uid: string | number;
  failing_uid: string | number | null;
  failing_attempts: number;
}

/** Said once the server renumbered a folder; it stays until the admin acts (other notes go with the next batch). */
const RENUMBERED =
  "The mail server renumbered this folder (its UIDVALIDITY changed): the import started again, and messages already filed are skipped.";

/** Something that stops the import until an admin acts: paused with the reason. */
class PauseImport extends Error {}

const system = <T>(deps: ImportDeps, orgId: string, fn: (tx: Tx) => Promise<T>) =>
  withSystem(deps.db, orgId, "mailbox-import", (ctx) => fn(ctx.db));

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The Message-ID a message without one is filed under: the hash of its bytes, so the same message is filed once. */
const sourceId = (raw: Buffer) => `sha256.${createHash("sha256").update(raw).digest("hex")}@source.cove.invalid`;

function countsOf(outcome: InboundOutcome) {
  if (outcome.result === "ticket" || outcome.result === "comment") return { imported: 1, skipped: 0, failed: 0 };
  if (outcome.result === "rejected") return { imported: 0, skipped: 0, failed: 1 };
  return { imported: 0, skipped: 1, failed: 0 };
}

/**
 * Files one batch of a mailbox's messages, if no other worker holds it. Answers whether more are waiting (the caller
 * sends the next job).
 */
export async function importBatch(deps: ImportDeps, job: MailboxJob): Promise<boolean> {
  const owner = `${randomUUID()}`;
  const { orgId, mailboxId } = job;
  const lease = `${deps.leaseSeconds} seconds`;
  const [mailbox] = await system(deps, orgId, (tx) =>
    queryRows<Claimed>(
      tx,
      sql`update email_mailboxes set lease_owner = ${owner}, lease_until = now() + ${lease}::interval
          where organization_id = ${orgId} and id = ${mailboxId} and status in ('importing', 'watching')
            and password_sealed is not null and (lease_until is null or lease_until < now())
          returning host, port, tls, username, password_sealed, folder, uid_validity, history_before_uid, last_uid,
                    failing_uid, failing_attempts`,
    ),
  );
  if (!mailbox) return false;

  const release = (changes = sql``) =>
    system(deps, orgId, (tx) =>
      queryRows(
        tx,
        sql`update email_mailboxes set lease_owner = null, lease_until = null, updated_at = now() ${changes}
            where organization_id = ${orgId} and id = ${mailboxId} and lease_owner = ${owner}`,
      ),
    );
  const pause = (reason: string) => release(sql`, status = 'paused', last_error = ${reason}`);

  let password: string;
  try {
    password = deps.secrets.open(mailbox.password_sealed, mailboxId);
  } catch (err) {
    if (!(err instanceof SecretUnreadable)) throw err;
    await pause(
      "The saved password can no longer be read (the server's SECRETS_KEY changed): enter the password again.",
    );
    return false;
  }

  let client: ImapFlow | null = null;
  try {
    const opened = await openMailbox(
      {
        host: mailbox.host,
        port: mailbox.port,
        tls: mailbox.tls,
        user: mailbox.username,
        password,
        folder: mailbox.folder,
      },
      deps.connect,
    );
    client = opened.client;
    const more = await fileBatch(deps, job, owner, client, mailbox, {
      uidValidity: Number(opened.folder.uidValidity),
      uidNext: Number(opened.folder.uidNext),
    });
    // A batch that went through clears what went wrong before (a server out of reach), not the renumbering note.
    await release(sql`, last_error = case when last_error = ${RENUMBERED} then last_error end`);
    return more;
  } catch (err) {
    if (err instanceof PauseImport) {
      await pause(err.message);
      return false;
    }
    if (err instanceof AppError && err.code === "MAILBOX_CONNECTION_FAILED") {
      // A refused password needs an admin; a server that cannot be reached now is tried again at the next poll.
      if (err.details?.[0]?.path === "password") await pause(err.message);
      else await release(sql`, last_error = ${err.message}, checked_at = now()`);
      return false;
    }
    if (err instanceof FilingAborted) {
      // Paused or cancelled: let go at once, so a resume does not wait for the claim to run out.
      await release();
      return false;
    }
    await release(
      sql`, last_error = ${`The import was interrupted and will go on: ${String((err as Error).message ?? err).slice(0, 300)}`}`,
    );
    throw err;
  } finally {
    if (client) await client.logout().catch(() => client?.close());
  }
}

async function fileBatch(
  deps: ImportDeps,
  job: MailboxJob,
  owner: string,
  client: ImapFlow,
  mailbox: Claimed,
  folder: { uidValidity: number; uidNext: number },
): Promise<boolean> {
  const { orgId, mailboxId } = job;
  const lease = `${deps.leaseSeconds} seconds`;
  let lastUid = Number(mailbox.last_uid);
  let historyBefore = mailbox.history_before_uid === null ? null : Number(mailbox.history_before_uid);

  if (mailbox.uid_validity === null || Number(mailbox.uid_validity) !== folder.uidValidity) {
    // A new UIDVALIDITY means every UID may now name another message: start again from the first. What was filed
    // before is recognised by its Message-ID (or its hash) and skipped, so nothing is filed twice.
    const renumbered = mailbox.uid_validity !== null;
    lastUid = 0;
    historyBefore = historyBefore ?? folder.uidNext;
    await system(deps, orgId, (tx) =>
      queryRows(
        tx,
        sql`update email_mailboxes set uid_validity = ${folder.uidValidity}, last_uid = 0,
              history_before_uid = ${renumbered ? folder.uidNext : historyBefore},
              imported = 0, skipped = 0, failed = 0, run_done = 0, run_started_at = now(),
              failing_uid = null, failing_attempts = 0,
              status = 'importing', history_done_at = null,
              last_error = ${renumbered ? RENUMBERED : null}
            where organization_id = ${orgId} and id = ${mailboxId} and lease_owner = ${owner}`,
      ),
    );
    if (renumbered) historyBefore = folder.uidNext;
  }

  // The UIDs still to file, in order (a list of numbers, never the messages).
  const waiting = ((await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || [])
    .filter((uid) => uid > lastUid)
    .sort((a, b) => a - b);
  await system(deps, orgId, (tx) =>
    queryRows(
      tx,
      sql`update email_mailboxes set remaining = ${waiting.length}, checked_at = now(),
            lease_until = now() + ${lease}::interval,
            status = case when ${waiting.length} = 0 and status = 'importing' then 'watching' else status end,
            history_done_at = case when ${waiting.length} = 0 and history_done_at is null then now()
                                   else history_done_at end
          where organization_id = ${orgId} and id = ${mailboxId} and lease_owner = ${owner}`,
    ),
  );
  if (waiting.length === 0) return false;

  const batch = waiting.slice(0, deps.batchSize);
  const sizes = new Map<number, number>();
  for (const message of await client.fetchAll(batch.join(","), { uid: true, size: true }, { uid: true })) {
    sizes.set(message.uid, message.size ?? 0);
  }

  for (const uid of batch) {
    const counted = async (tx: Tx, outcome: InboundOutcome | null) => {
      const c = outcome ? countsOf(outcome) : { imported: 0, skipped: 0, failed: 0 };
      const [moved] = await queryRows<{ id: string }>(
        tx,
        sql`update email_mailboxes set last_uid = ${uid}, imported = imported + ${c.imported},
              skipped = skipped + ${c.skipped}, failed = failed + ${c.failed},
              remaining = greatest(remaining - 1, 0), run_done = run_done + 1,
              failing_uid = null, failing_attempts = 0,
              lease_until = now() + ${lease}::interval, updated_at = now()
            where organization_id = ${orgId} and id = ${mailboxId} and lease_owner = ${owner}
              and status in ('importing', 'watching') and last_uid < ${uid}
            returning id`,
      );
      // Paused, cancelled or taken over meanwhile: this message is not filed by this worker.
      if (!moved) throw new Error("the import was paused, cancelled or taken over");
    };
    const opts = {
      history: historyBefore !== null && uid < historyBefore,
      throwRefusals: true,
      onFiled: counted,
    };
    try {
      const size = sizes.get(uid);
      if (size === undefined) {
        // Deleted from the folder since the search: nothing to file, only to step over.
        await system(deps, orgId, (tx) => counted(tx, null));
        continue;
      }
      if (size > INBOUND_MAX_BYTES) {
        const head = await download(client, uid, REFUSED_HEAD_BYTES);
        const reason = `Larger than ${INBOUND_MAX_BYTES / 1024 / 1024} MB (${Math.ceil(size / 1024 / 1024)} MB): not imported.`;
        await refuseMail(deps.db, orgId, head ?? Buffer.alloc(0), reason, {
          ...opts,
          fallbackMessageId: `size.${uid}.${folder.uidValidity}.${mailboxId}@source.cove.invalid`,
        });
        continue;
      }
      const raw = await download(client, uid, INBOUND_MAX_BYTES);
      if (!raw) {
        await system(deps, orgId, (tx) => counted(tx, null));
        continue;
      }
      await receiveMail(
        deps.db,
        orgId,
        { raw, envelopeFrom: "", tag: null },
        { ...opts, fallbackMessageId: sourceId(raw) },
      );
    } catch (err) {
      if (err instanceof FilingAborted) throw err;
      if (err instanceof AppError && (err.code === "READ_ONLY" || err.code === "TICKET_LIMIT")) {
        throw new PauseImport(`The import is paused: ${err.message}`);
      }
      await giveUpOrRetry(deps, job, owner, uid, mailbox, err);
      throw err;
    }
  }
  if (waiting.length > batch.length) return true;
  // The last of them: the history is done (the next poll would say so a minute later).
  await system(deps, orgId, (tx) =>
    queryRows(
      tx,
      sql`update email_mailboxes set status = case when status = 'importing' then 'watching' else status end,
            history_done_at = coalesce(history_done_at, now())
          where organization_id = ${orgId} and id = ${mailboxId} and lease_owner = ${owner} and remaining = 0`,
    ),
  );
  return false;
}

/** One message's own bytes, streamed from the server in chunks, at most max bytes; null when it is gone. */
async function download(client: ImapFlow, uid: number, max: number): Promise<Buffer | null> {
  const { content } = await client.download(String(uid), undefined, { uid: true, maxBytes: max });
  return content ? readAll(content) : null;
}

/**
 * A message whose filing failed for a reason outside it (the database, the connection) is tried again by the job's
 * retry; after a few attempts at the same message it is counted failed, so one message never holds up the rest.
 */
async function giveUpOrRetry(
  deps: ImportDeps,
  job: MailboxJob,
  owner: string,
  uid: number,
  mailbox: Claimed,
  err: unknown,
) {
  const attempts = Number(mailbox.failing_uid) === uid ? mailbox.failing_attempts + 1 : 1;
  const why = String((err as Error)?.message ?? err).slice(0, 300);
  deps.log.warn({ mailbox: job.mailboxId, uid, attempts, err: why }, "mailbox import: a message could not be filed");
  await system(deps, job.orgId, (tx) =>
    queryRows(
      tx,
      attempts >= ATTEMPTS_PER_MESSAGE
        ? sql`update email_mailboxes set last_uid = greatest(last_uid, ${uid}), failed = failed + 1,
                remaining = greatest(remaining - 1, 0), failing_uid = null, failing_attempts = 0,
                last_error = ${`Message ${uid} could not be filed after ${attempts} attempts (${why}); the import went on.`}
              where organization_id = ${job.orgId} and id = ${job.mailboxId} and lease_owner = ${owner}`
        : sql`update email_mailboxes set failing_uid = ${uid}, failing_attempts = ${attempts}
              where organization_id = ${job.orgId} and id = ${job.mailboxId} and lease_owner = ${owner}`,
    ),
  );
}

/** The mailboxes to look at now: every one importing or watching that no live worker holds. */
export async function mailboxesDue(db: Db): Promise<MailboxJob[]> {
  const rows = await queryRows<{ id: string; organization_id: string }>(
    db,
    sql`select id, organization_id from email_mailboxes
        where status in ('importing', 'watching') and password_sealed is not null
          and (lease_until is null or lease_until < now())
        order by checked_at nulls first limit 500`,
  );
  return rows.map((r) => ({ orgId: r.organization_id, mailboxId: r.id }));
}

/**
 * The import's workers: one batch per job, the next job sent as soon as a batch leaves more; every minute the
 * schedule sends a job for each mailbox no worker holds (new mail, an import a crash interrupted).
 */
export function registerMailboxImport(deps: ImportDeps): void {
  deps.jobs.work(MAILBOX_IMPORT_QUEUE, async (job) => {
    const more = await importBatch(deps, job);
    if (more) await deps.jobs.send(deps.db, MAILBOX_IMPORT_QUEUE, job);
  });
  deps.jobs.work(MAILBOX_POLL_QUEUE, async () => {
    for (const job of await mailboxesDue(deps.db)) await deps.jobs.send(deps.db, MAILBOX_IMPORT_QUEUE, job);
  });
  deps.jobs.schedule(MAILBOX_POLL_QUEUE, "* * * * *");
}

/**
 * On the embedded database one process owns the data (DATA_DIR's lock), so a claim left by an earlier process is a
 * dead worker's: it is let go at start, and the import resumes at once instead of when the claim runs out.
 */
export async function releaseStaleClaims(db: Db): Promise<void> {
  await db.execute(
    sql`update email_mailboxes set lease_owner = null, lease_until = null where lease_owner is not null`,
  );
}
