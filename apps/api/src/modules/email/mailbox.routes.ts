import { MAILBOX_BATCH_SIZE, mailboxesApi } from "@cove/contract/mailboxes.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import type { Secrets } from "../../platform/secrets.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import type { ConnectOptions } from "./mailbox.connection.ts";
import { registerMailboxImport, releaseStaleClaims } from "./mailbox.import.ts";
import {
  cancelMailbox,
  connectMailbox,
  listMailboxes,
  type MailboxDeps,
  pauseMailbox,
  removeMailbox,
  resumeMailbox,
  updateMailbox,
} from "./mailbox.service.ts";

export interface MailboxOptions {
  secrets: Secrets;
  connect: ConnectOptions;
  /** Messages per import job (MAILBOX_BATCH_SIZE). */
  batchSize?: number;
  /** Seconds a worker's claim on a mailbox lasts without news (60). */
  leaseSeconds?: number;
  /** One process owns the database (embedded): claims left at start are a dead process's. */
  releaseClaimsAtStart: boolean;
}

/**
 * Mailbox import over IMAP for admins (the contract's mailboxesApi): connect, follow the progress, pause, resume,
 * cancel, remove.
 */
export async function mailboxRoutes(app: FastifyInstance, opts: MailboxOptions) {
  const deps: MailboxDeps = { jobs: app.jobs, secrets: opts.secrets, connect: opts.connect };
  registerMailboxImport({
    db: app.db,
    jobs: app.jobs,
    secrets: opts.secrets,
    connect: opts.connect,
    log: app.log,
    batchSize: opts.batchSize ?? MAILBOX_BATCH_SIZE,
    leaseSeconds: opts.leaseSeconds ?? 60,
  });
  if (opts.releaseClaimsAtStart) app.addHook("onReady", () => releaseStaleClaims(app.db));
  const steps =
    (req: FastifyRequest) =>
    <T>(fn: (ctx: Ctx) => Promise<T>) =>
      inRequest(app, req, fn);
  const mailboxId = (req: { params: { id: string } }) => recordId("Mailbox", req.params.id);

  addRoute(app, mailboxesApi.list, {
    handler: async (req) => ({ mailboxes: await inRequest(app, req, listMailboxes) }),
  });

  addRoute(app, mailboxesApi.connect, {
    handler: async (req, reply) => {
      const mailbox = await connectMailbox(deps, steps(req), req.body);
      return reply.status(201).send({ mailbox });
    },
  });

  addRoute(app, mailboxesApi.update, {
    handler: async (req) => ({ mailbox: await updateMailbox(deps, steps(req), mailboxId(req), req.body) }),
  });

  // Stopping Cove from reading a mailbox is always possible, even while the organization is read-only.
  const always = { allowedWhenReadOnly: true } as const;
  addRoute(app, mailboxesApi.pause, {
    config: always,
    handler: async (req) => ({ mailbox: await inRequest(app, req, (ctx) => pauseMailbox(ctx, mailboxId(req))) }),
  });
  addRoute(app, mailboxesApi.resume, {
    handler: async (req) => ({
      mailbox: await inRequest(app, req, (ctx) => resumeMailbox(deps, ctx, mailboxId(req))),
    }),
  });
  addRoute(app, mailboxesApi.cancel, {
    config: always,
    handler: async (req) => ({ mailbox: await inRequest(app, req, (ctx) => cancelMailbox(ctx, mailboxId(req))) }),
  });

  addRoute(app, mailboxesApi.remove, {
    config: always,
    handler: async (req) => {
      await inRequest(app, req, (ctx) => removeMailbox(ctx, mailboxId(req)));
      return { message: "Mailbox removed" };
    },
  });
}
