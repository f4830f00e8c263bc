import { randomBytes } from "node:crypto";
import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS } from "@cove/contract/attachment-limits.ts";
import { REGISTRATIONS_PER_HOUR } from "@cove/contract/constants.ts";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import * as aiModule from "./modules/ai/index.ts";
import { createOpenAiProvider, embeddedProvider } from "./modules/ai/index.ts";
import * as apiKeys from "./modules/api-keys/index.ts";
import * as attachments from "./modules/attachments/index.ts";
import * as audit from "./modules/audit/index.ts";
import * as auth from "./modules/auth/index.ts";
import * as automation from "./modules/automation/index.ts";
import * as billing from "./modules/billing/index.ts";
import { createPayments, registerReadOnlyGuard } from "./modules/billing/index.ts";
import * as chat from "./modules/chat/index.ts";
import type { ContactRecords } from "./modules/contacts/index.ts";
import * as contacts from "./modules/contacts/index.ts";
import * as csat from "./modules/csat/index.ts";
import * as demo from "./modules/demo/index.ts";
import type { EmailChannelOptions } from "./modules/email/index.ts";
import * as email from "./modules/email/index.ts";
import * as health from "./modules/health/index.ts";
import * as kb from "./modules/kb/index.ts";
import * as notifications from "./modules/notifications/index.ts";
import * as onboarding from "./modules/onboarding/index.ts";
import * as organizations from "./modules/organizations/index.ts";
import * as portal from "./modules/portal/index.ts";
import * as privacy from "./modules/privacy/index.ts";
import * as reports from "./modules/reports/index.ts";
import * as settings from "./modules/settings/index.ts";
import * as tickets from "./modules/tickets/index.ts";
import * as users from "./modules/users/index.ts";
import type { WebhooksOptions } from "./modules/webhooks/index.ts";
import * as webhooks from "./modules/webhooks/index.ts";
import { createAnswerCache, registerAnswerCache } from "./platform/answer-cache.ts";
import { registerAuditAddress } from "./platform/audit.ts";
import { createAuthenticator, registerAccessControl } from "./platform/auth.ts";
import type { AiConfig, PaymentConfig } from "./platform/config.ts";
import type { Database } from "./platform/db.ts";
import { AppError, clientError, frameworkError, registerErrorHandling } from "./platform/errors.ts";
import { createEventBus, scheduleOutboxPurge } from "./platform/events.ts";
import { registerIdempotency, scheduleIdempotencyPurge } from "./platform/idempotency.ts";
import { createJobs, type JobsOptions } from "./platform/jobs.ts";
import { cleanText, registerJsonBody } from "./platform/json-body.ts";
import { registerLifecycle } from "./platform/lifecycle.ts";
import { withLogSerializers } from "./platform/logging.ts";
import { createMailer, type MailConfig } from "./platform/mail.ts";
import { createMetrics, registerMetrics } from "./platform/metrics.ts";
import { openApiTransform, SECURITY_SCHEMES } from "./platform/openapi.ts";
import { scheduleRateLimitPurge, sharedRateLimitStore } from "./platform/rate-limit-store.ts";
import { registerRealtime } from "./platform/realtime.ts";
import { registerRequestId, requestIdOf } from "./platform/request-id.ts";
import { createSecrets } from "./platform/secrets.ts";
import { registerSecurityHeaders } from "./platform/security-headers.ts";
import { answerSerializer } from "./platform/serializer.ts";
import { attachEventBus } from "./platform/tenancy.ts";
import { registerWebApp, WEB_DIST } from "./platform/web.ts";

export interface AppOptions {
  database: Database;
  mail: MailConfig;
  publicUrl: string;
  jobs?: JobsOptions;
  logger?: FastifyServerOptions["logger"];
  trustProxy?: boolean;
  /** The assistant's provider; the embedded one when absent. */
  ai?: AiConfig;
  /** Memory for cached answers (platform/answer-cache.ts), in bytes; 0 turns the cache off. */
  answerCacheBytes?: number;
  /** The card provider; Cove's own test provider when absent. */
  payments?: PaymentConfig;
  /** Organizations one address may register per hour; REGISTRATIONS_PER_HOUR when absent. */
  registrationsPerHour?: number;
  /** The email channel (INBOUND_DOMAIN); no inbound address when absent. */
  email?: EmailChannelOptions;
  /** Mailbox import: the key that seals mailbox passwords (a random one per run when absent), private hosts. */
  mailboxes?: { secretsKey?: Buffer; allowPrivateHosts?: boolean; batchSize?: number; leaseSeconds?: number };
  /** Files' size and count limits (ATTACHMENT_* configuration); the contract's defaults when absent. */
  attachmentLimits?: AttachmentLimits;
  /** Outgoing webhooks: private hosts, and (tests) the retry schedule, timeout, polling and resolver. */
  webhooks?: Omit<WebhooksOptions, "secrets" | "publicUrl">;
  /** The built web app to serve; apps/web/dist when absent (tests give a build of their own). */
  webDist?: string;
  /** The bearer token of GET /metrics (METRICS_TOKEN); /metrics answers 404 when absent. */
  metricsToken?: string;
  /**
   * Whether each answer is also written through its zod schema and must come out the same (platform/serializer.ts);
   * everywhere but NODE_ENV=production when absent, so every test checks the compiled serializers.
   */
  checkAnswers?: boolean;
  /**
   * Prefixes the keys of the routes' rate-limit counters on PostgreSQL: the instances of one deployment share them
   * (none given); tests give each app its own, as many apps share one test database.
   */
  rateLimitScope?: string;
}

/** One line per route, as declared: tests go through all of them (e.g. read-only mode on every write). */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: string | undefined;
  /** The kinds of caller besides staff that an authenticated route admits (contact: the route is customers' only). */
  actors: readonly string[];
  allowedWhenReadOnly: boolean;
  /** A public write that names the organization it writes to (refused while that one is read-only). */
  writesTo: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    routeList: DeclaredRoute[];
    attachmentLimits: AttachmentLimits;
  }
}

/** What a browser needs to load Stripe.js and its card frames under the Content-Security-Policy. */
const STRIPE_SOURCES = {
  scriptSrc: ["https://js.stripe.com"],
  frameSrc: ["https://js.stripe.com", "https://hooks.stripe.com"],
  connectSrc: ["https://api.stripe.com"],
};

/** The answer cache's budget when none is given: about 3,000 pages of 25 tickets. */
export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

const BODY_LIMIT = 1024 * 1024;

/** The OpenAPI document (each operation's access and errors from platform/openapi.ts) and its viewer at /api/docs. */
async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Cove API",
        version: "0.1.0",
        description: [
          "The help desk's API. Every error answer is {error, code, details?}; each operation lists its codes.",
          "Who may call an operation is in its description and in x-cove-access (public, customer, member, admin,",
          "api_key:read, api_key:read_write). API keys: at most 300 requests a minute on Growth and 1,000 on Business,",
          "with RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every answer, and 429 with Retry-After.",
          "A POST sent with an Idempotency-Key header (up to 255 printable characters) by a member or an API key runs",
          "once: the same request again within 24 hours gets the first answer back (Idempotent-Replayed: true), the",
          "same key with another request answers 422, and a repeat while the first still runs answers 409. Lists that",
          "page answer pagination.next_cursor: pass it as cursor for the rows after the last one shown.",
        ].join(" "),
      },
      // Each operation says which of these it takes, and who may call it (platform/openapi.ts).
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
}

/**
 * What modules get from the ones that build on them (and so cannot import): a ticket's files, emailed replies' delivery
 * and rating. Called by buildApp; a script that calls ticket services without an app calls it first.
 */
export function connectModules(): void {
  tickets.connectTicketParts({
    attachments: attachments.ticketAttachmentsJson,
    attachPending: attachments.attachPending,
    emailStatus: email.commentEmailStatus,
    rating: csat.ticketRatingJson,
  });
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  connectModules();
  const app = Fastify({
    logger: withLogSerializers(opts.logger ?? false),
    bodyLimit: BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
    routerOptions: { maxParamLength: 200 },
    // The load balancer's X-Request-Id when it is a sane one, else one of Cove's own (platform/request-id.ts).
    genReqId: requestIdOf,
    frameworkErrors: frameworkError,
    // A request that reaches a closing instance is still served (draining: platform/lifecycle.ts, main.ts).
    return503OnClosing: false,
    clientErrorHandler: clientError,
  });
  registerJsonBody(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer({ checked: opts.checkAnswers ?? process.env.NODE_ENV !== "production" }));
  app.decorate("db", opts.database.db);
  const metrics = createMetrics({ defaultMetrics: Boolean(opts.metricsToken) });
  app.decorate("metrics", metrics);
  app.decorate("mailer", createMailer(opts.mail, app.log, metrics));
  app.decorate("jobs", createJobs(opts.database, app.mailer, app.log, opts.jobs, metrics));
  metrics.countWaitingJobs(() => app.jobs.waiting());
  const { poolCounts } = opts.database;
  if (poolCounts) metrics.countPool(poolCounts);
  const events = createEventBus(app.log);
  app.decorate("events", events);
  attachEventBus(opts.database.db, events);
  scheduleOutboxPurge(app.jobs, opts.database.executeSql);
  // The queue's worker starts with the app and stops before the mail transport closes (app.close(), SIGTERM). The
  // event bus's durable handlers, registered by the modules below, get their queues first.
  app.addHook("onReady", async () => {
    events.attachJobs(app.jobs);
    await app.jobs.start();
  });
  app.addHook("onClose", async () => {
    await app.jobs.stop();
    app.mailer.close();
  });
  app.decorate("publicUrl", opts.publicUrl);
  app.decorate("attachmentLimits", opts.attachmentLimits ?? DEFAULT_ATTACHMENT_LIMITS);
  app.decorate("routeList", []);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      app.routeList.push({
        method,
        url: route.url,
        access: route.config?.access,
        actors: route.config?.actors ?? [],
        allowedWhenReadOnly: route.config?.allowedWhenReadOnly === true,
        writesTo: route.config?.writesTo !== undefined,
      });
    }
  });

  registerErrorHandling(app);
  registerRequestId(app);
  registerLifecycle(app);
  registerMetrics(app, metrics, opts.metricsToken);
  const payments = createPayments(app, opts.payments ?? { provider: "test" });
  // First of the onRequest hooks: every answer carries the headers, a 401 from access control among them.
  registerSecurityHeaders(app, payments.provider.kind === "stripe" ? STRIPE_SOURCES : {});
  const authenticator = createAuthenticator(opts.database.db);
  registerAccessControl(app, authenticator);
  // Entries recorded while a request is answered carry its client address.
  registerAuditAddress(app);
  // After access control: its hooks find the principal that the cache's hooks check.
  registerAnswerCache(app, opts.database.db, createAnswerCache(opts.answerCacheBytes ?? DEFAULT_ANSWER_CACHE_BYTES));
  // After access control: it refuses writes by the principal's organization when that is read-only.
  registerReadOnlyGuard(app);
  // After access control: a POST's Idempotency-Key belongs to its caller (member or API key).
  registerIdempotency(app);
  scheduleIdempotencyPurge(app.jobs, opts.database.executeSql);

  // On PostgreSQL the routes' limits are counted in the database, once for all instances; the embedded database is one
  // process, whose memory is as shared as it gets. A counter that cannot be written lets the request through
  // (docs/decisions/2026-12-01-shared-rate-limits.md).
  const sharedLimits = opts.database.kind === "postgres";
  if (sharedLimits) scheduleRateLimitPurge(app.jobs, opts.database.executeSql);
  await app.register(rateLimit, {
    global: false,
    ...(sharedLimits && { store: sharedRateLimitStore(app.db, app.log, opts.rateLimitScope), skipOnError: true }),
    errorResponseBuilder: (_req, ctx) =>
      new AppError("RATE_LIMITED", `Too many requests. Please try again in ${ctx.after}.`),
  });

  // Every string of a request, once: NUL refused, lone surrogates made U+FFFD (no JSONB column or encoder sees one).
  app.addHook("preValidation", async (req) => {
    const body = cleanText(req.body);
    const query = cleanText(req.query);
    const params = cleanText(req.params);
    if (body.nul || query.nul || params.nul) {
      throw new AppError("BAD_REQUEST", "Text must not contain NUL (\\0) characters.");
    }
    req.body = body.value;
  });

  await registerApiDocs(app);
  app.decorate("realtime", await registerRealtime(app, { database: opts.database, bus: events, authenticator }));

  // One key seals every stored secret: mailbox passwords, members' TOTP secrets, webhook signing secrets.
  const secrets = createSecrets(opts.mailboxes?.secretsKey ?? randomBytes(32));
  const ai = opts.ai ?? { provider: "embedded" };
  const provider = ai.provider === "openai" ? createOpenAiProvider(ai, (msg) => app.log.warn(msg)) : embeddedProvider;
  // A customer's views show their tickets and chats: those modules build on contacts, so they are passed in here.
  const contactRecords: ContactRecords = {
    ticketCount: tickets.contactTicketCount,
    lastTicketAt: tickets.contactLastTicketAt,
    ticketsOf: tickets.ticketsOfContact,
    contactOfTicket: tickets.contactIdOfTicket,
    chatsOf: chat.chatsOfContact,
  };
  // Each module registers its routes, event handlers and schedules through its front door (modules/<m>/index.ts),
  // in this order: the in-transaction handlers of one event run in the order their modules register here.
  await health.register(app, { kind: opts.database.kind, migrationsBehind: opts.database.migrationsBehind });
  await auth.register(app, { registrationsPerHour: opts.registrationsPerHour ?? REGISTRATIONS_PER_HOUR, secrets });
  await billing.register(app, {
    payments,
    lifecycle: {
      db: app.db,
      eraseOrganization: organizations.eraseOrganization,
      purgeExports: organizations.purgeExports,
      log: app.log,
    },
  });
  await apiKeys.register(app);
  await settings.register(app, { payments, inboundDomain: opts.email?.inboundDomain?.toLowerCase() ?? null });
  await organizations.register(app, {
    embedded: opts.database.kind === "embedded",
    contactExport: privacy.customerExportFiles,
  });
  await tickets.register(app);
  await users.register(app);
  await audit.register(app, { executeSql: opts.database.executeSql });
  await notifications.register(app);
  await automation.register(app);
  await kb.register(app);
  await contacts.register(app, { records: contactRecords });
  await privacy.register(app, { records: contactRecords });
  await portal.register(app);
  await csat.register(app);
  await reports.register(app);
  await attachments.register(app);
  await email.register(app, {
    channel: { ...(opts.email ?? { inboundDomain: null }), publicUrl: opts.publicUrl },
    mailboxes: {
      secrets,
      connect: { allowPrivateHosts: opts.mailboxes?.allowPrivateHosts ?? false },
      batchSize: opts.mailboxes?.batchSize,
      leaseSeconds: opts.mailboxes?.leaseSeconds,
      releaseClaimsAtStart: opts.database.kind === "embedded",
    },
  });
  await demo.register(app);
  await aiModule.register(app, { provider });
  await chat.register(app, { provider });
  await onboarding.register(app);
  await webhooks.register(app, { ...opts.webhooks, secrets, publicUrl: opts.publicUrl, jobs: app.jobs });
  await registerWebApp(app, opts.webDist ?? WEB_DIST);
  return app;
}
