import { messageAnswer } from "@cove/contract/auth.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  connectMailboxBody,
  MAILBOX_BATCH_SIZE,
  mailboxAnswer,
  mailboxListAnswer,
  updateMailboxBody,
} from "@cove/contract/mailboxes.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
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

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const connectErrors = { ...errors, 409: errorSchema, 422: errorSchema };
const tags = ["email"];

/** Mailbox import over IMAP for admins: connect, follow the progress, pause, resume, cancel, remove. */
export async function mailboxRoutes(fastify: FastifyInstance, opts: MailboxOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
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

  app.get("/api/email/mailboxes", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "The connected mailboxes with their import's progress",
      response: { 200: mailboxListAnswer, ...errors },
    },
    handler: async (req) => ({ mailboxes: await inRequest(app, req, listMailboxes) }),
  });

  app.post("/api/email/mailboxes", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Connect a mailbox over IMAP (tried first) and start importing it",
      body: connectMailboxBody,
      response: { 201: mailboxAnswer, ...connectErrors },
    },
    handler: async (req, reply) => {
      const mailbox = await connectMailbox(deps, steps(req), req.body);
      return reply.status(201).send({ mailbox });
    },
  });

  app.put("/api/email/mailboxes/:id", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Change a mailbox's sign-in details (tried first); an empty password keeps the saved one",
      params: idParams,
      body: updateMailboxBody,
      response: { 200: mailboxAnswer, ...connectErrors },
    },
    handler: async (req) => ({ mailbox: await updateMailbox(deps, steps(req), mailboxId(req), req.body) }),
  });

  for (const [action, summary, run] of [
    ["pause", "Pause a mailbox's import", (ctx: Ctx, id: string) => pauseMailbox(ctx, id)],
    ["resume", "Resume a paused import where it stopped", (ctx: Ctx, id: string) => resumeMailbox(deps, ctx, id)],
    ["cancel", "Stop importing for good and forget the password", (ctx: Ctx, id: string) => cancelMailbox(ctx, id)],
  ] as const) {
    app.post(`/api/email/mailboxes/:id/${action}`, {
      // Stopping Cove from reading a mailbox is always possible, even while the organization is read-only.
      config: { access: "admin", ...(action === "resume" ? {} : { allowedWhenReadOnly: true as const }) },
      schema: { tags, summary, params: idParams, response: { 200: mailboxAnswer, ...errors, 409: errorSchema } },
      handler: async (req) => ({ mailbox: await inRequest(app, req, (ctx) => run(ctx, mailboxId(req))) }),
    });
  }

  app.delete("/api/email/mailboxes/:id", {
    config: { access: "admin", allowedWhenReadOnly: true },
    schema: {
      tags,
      summary: "Remove a mailbox and its saved password (the tickets it made stay)",
      params: idParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => removeMailbox(ctx, mailboxId(req)));
      return { message: "Mailbox removed" };
    },
  });
}
