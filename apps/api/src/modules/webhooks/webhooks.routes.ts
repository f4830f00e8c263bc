import { webhooksApi } from "@cove/contract/webhooks.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { addRoute } from "../../platform/routes.ts";
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

async function webhooksRoutes(app: FastifyInstance, { deps }: { deps: service.WebhooksDeps }) {
  addRoute(app, webhooksApi.list, { handler: (req) => inRequest(app, req, service.listWebhooks) });

  addRoute(app, webhooksApi.create, {
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(app, req, (ctx) => service.createWebhook(ctx, deps, req.body))),
  });

  addRoute(app, webhooksApi.update, {
    handler: (req) => inRequest(app, req, (ctx) => service.updateWebhook(ctx, deps, req.params.id, req.body)),
  });

  addRoute(app, webhooksApi.remove, {
    handler: (req) => inRequest(app, req, (ctx) => service.deleteWebhook(ctx, req.params.id)),
  });

  addRoute(app, webhooksApi.rollSecret, {
    handler: (req) => inRequest(app, req, (ctx) => service.rollSecret(ctx, deps, req.params.id)),
  });

  addRoute(app, webhooksApi.sendTest, {
    handler: async (req, reply) =>
      reply.status(202).send(await inRequest(app, req, (ctx) => service.sendTest(ctx, deps, req.params.id))),
  });

  addRoute(app, webhooksApi.deliveries, {
    handler: (req) => inRequest(app, req, (ctx) => service.webhookDeliveries(ctx, req.params.id)),
  });

  addRoute(app, webhooksApi.redeliver, {
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
