import { errorSchema } from "@cove/contract/errors.ts";
import {
  createWebhookBody,
  deliveryAnswer,
  deliveryListAnswer,
  deliveryParams,
  updateWebhookBody,
  webhookAnswer,
  webhookListAnswer,
  webhookParams,
  webhookWithSecretAnswer,
} from "@cove/contract/webhooks.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import type { Jobs } from "../../platform/jobs.ts";
import type { Secrets } from "../../platform/secrets.ts";
import { DEFAULT_TIMEOUT_MS, type Resolver, systemResolver } from "./webhooks.http.ts";
import { SOURCE_EVENTS } from "./webhooks.payloads.ts";
import * as service from "./webhooks.service.ts";
import {
  createWorker,
  pendingDeliveries,
  RETRY_SCHEDULE_SECONDS,
  schedulePurge,
  WEBHOOKS_QUEUE_LABEL,
} from "./webhooks.worker.ts";

export interface WebhooksOptions {
  secrets: Secrets;
  publicUrl: string;
  /** WEBHOOKS_ALLOW_PRIVATE_HOSTS: deliveries to loopback and private addresses, and over http, are allowed. */
  allowPrivateHosts?: boolean;
  /** Seconds before each retry (RETRY_SCHEDULE_SECONDS when absent; tests give short ones). */
  retrySchedule?: readonly number[];
  /** The whole exchange's deadline (10 s when absent). */
  timeoutMs?: number;
  /** How often the worker looks for due deliveries when no event woke it (1 s when absent). */
  pollMs?: number;
  /** Host names to addresses (dns.lookup when absent; tests inject one). */
  resolve?: Resolver;
  /** The worker runs in this process (true when absent). */
  worker?: boolean;
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["webhooks"];
const admin = { access: "admin" } as const;

/**
 * Outgoing webhooks and the Slack integration: the in-transaction handler that adds deliveries, the worker that sends
 * them (decorated on the app as webhooksWorker), and the admins' routes (Settings -> Integrations). docs/webhooks.md.
 */
export async function registerWebhooks(root: FastifyInstance, opts: WebhooksOptions & { jobs: Jobs }) {
  const outbound = {
    allowPrivateHosts: opts.allowPrivateHosts ?? false,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    resolve: opts.resolve ?? systemResolver,
  };
  const worker = createWorker(root.db, opts.jobs, root.log, {
    outbound,
    secrets: opts.secrets,
    publicUrl: opts.publicUrl,
    retrySchedule: opts.retrySchedule ?? RETRY_SCHEDULE_SECONDS,
    pollMs: opts.pollMs ?? 1000,
    batchSize: 50,
    metrics: root.metrics,
  });
  root.metrics.countWaitingJobs(async () => ({ [WEBHOOKS_QUEUE_LABEL]: await pendingDeliveries(root.db) }));
  const deps: service.WebhooksDeps = { secrets: opts.secrets, outbound, wake: () => worker.wake() };
  root.decorate("webhooksWorker", worker);
  root.events.onInTransaction(SOURCE_EVENTS, service.enqueueDeliveries);
  schedulePurge(opts.jobs, root.db);
  if (opts.worker !== false) {
    // A committed event may have added deliveries: the worker looks at once rather than at its next poll.
    const stopListening = root.events.listen(() => worker.wake());
    root.addHook("onReady", async () => worker.start());
    root.addHook("onClose", async () => {
      stopListening();
      await worker.stop();
    });
  }
  await root.register(webhooksRoutes, { deps });
}

async function webhooksRoutes(fastify: FastifyInstance, { deps }: { deps: service.WebhooksDeps }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/webhooks", {
    config: admin,
    schema: {
      tags,
      summary: "The organization's webhooks and Slack integrations",
      response: { 200: webhookListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.listWebhooks),
  });

  app.post("/api/webhooks", {
    config: admin,
    schema: {
      tags,
      summary:
        "Add a webhook ({ url, events, enabled }) or a Slack integration (kind slack): its secret is in this answer only",
      body: createWebhookBody,
      response: { 201: webhookWithSecretAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(app, req, (ctx) => service.createWebhook(ctx, deps, req.body))),
  });

  app.put("/api/webhooks/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Change a webhook's URL, events, or turn it on or off",
      params: webhookParams,
      body: updateWebhookBody,
      response: { 200: webhookAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.updateWebhook(ctx, deps, req.params.id, req.body)),
  });

  app.delete("/api/webhooks/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Delete a webhook and its delivery log",
      params: webhookParams,
      response: { 200: webhookAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.deleteWebhook(ctx, req.params.id)),
  });

  app.post("/api/webhooks/:id/roll-secret", {
    config: admin,
    schema: {
      tags,
      summary: "A new signing secret (in this answer only); the old one keeps signing beside it for 24 hours",
      params: webhookParams,
      response: { 200: webhookWithSecretAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.rollSecret(ctx, deps, req.params.id)),
  });

  app.post("/api/webhooks/:id/test", {
    config: admin,
    schema: {
      tags,
      summary: "Send a test event (webhook.test) now",
      params: webhookParams,
      response: { 202: deliveryAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(202).send(await inRequest(app, req, (ctx) => service.sendTest(ctx, deps, req.params.id))),
  });

  app.get("/api/webhooks/:id/deliveries", {
    config: admin,
    schema: {
      tags,
      summary: "The webhook's latest deliveries: time, event, status code, duration, the first 2 KB of the answer",
      params: webhookParams,
      response: { 200: deliveryListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.webhookDeliveries(ctx, req.params.id)),
  });

  app.post("/api/webhooks/:id/deliveries/:deliveryId/redeliver", {
    config: admin,
    schema: {
      tags,
      summary: "Send a delivery's event again, as a new delivery",
      params: deliveryParams,
      response: { 202: deliveryAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply
        .status(202)
        .send(await inRequest(app, req, (ctx) => service.redeliver(ctx, deps, req.params.id, req.params.deliveryId))),
  });
}

declare module "fastify" {
  interface FastifyInstance {
    webhooksWorker: import("./webhooks.worker.ts").WebhooksWorker;
  }
}
