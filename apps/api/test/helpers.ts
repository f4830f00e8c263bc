import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AuthAnswer, RegisterBody } from "@cove/contract/auth.ts";
import type { Article } from "@cove/contract/kb.ts";
import type { Comment, Ticket } from "@cove/contract/tickets.ts";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { type AppOptions, buildApp } from "../src/app.ts";
import { sessions } from "../src/db/schema/auth.ts";
import { users } from "../src/db/schema/users.ts";
import { hashToken, newToken } from "../src/platform/auth.ts";
import type { AiConfig, PaymentConfig } from "../src/platform/config.ts";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { DEFAULT_JOBS_SCHEMA } from "../src/platform/jobs.ts";
import { startSmtp, type TestSmtp } from "./smtp.ts";

/**
 * With TEST_DATABASE_URL the suite runs on that PostgreSQL (migrated once in global-setup), else on in-memory PGlite.
 * With TEST_DATABASE_DIRECT_URL too, TEST_DATABASE_URL is a pooler in transaction mode (PgBouncer) in front of it.
 */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  outboxDir: string;
  /** The schema of the job queue's tables. */
  jobsSchema: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  smtpUrl?: string;
  mailRetryDelaySeconds?: number;
  mailRetryLimit?: number;
  /** How long stopping the queue waits for running jobs before handing them back (the shutdown grace). */
  jobsStopTimeoutMs?: number;
  ai?: AiConfig;
  answerCacheBytes?: number;
  /** Runs after the app is built and before it is ready: to register event handlers of the test's own. */
  setup?: (app: FastifyInstance) => void;
  payments?: PaymentConfig;
  logger?: AppOptions["logger"];
  /** The email channel (an inbound domain, short retries). */
  email?: AppOptions["email"];
  /** Mailbox import: private hosts (a local Dovecot), batch size, claim length. */
  mailboxes?: AppOptions["mailboxes"];
  /** Files' limits (ATTACHMENT_* configuration). */
  attachmentLimits?: AppOptions["attachmentLimits"];
  /** A web build to serve (platform/web.test.ts). */
  webDist?: string;
  /** Outgoing webhooks: private hosts, short retries, a resolver of the test's own. */
  webhooks?: AppOptions["webhooks"];
  /** GET /metrics' bearer token (absent: /metrics answers 404). */
  metricsToken?: string;
  /**
   * The rate-limit counters' scope on PostgreSQL: apps given the same one count together, as one deployment's
   * instances do. Absent: one of the app's own, so test files sharing the database never use up each other's limits.
   */
  rateLimitScope?: string;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const url = process.env.TEST_DATABASE_URL;
  const database = url
    ? await openDatabase({ kind: "postgres", url, directUrl: process.env.TEST_DATABASE_DIRECT_URL })
    : await embeddedTestDatabase();
  const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-outbox-"));
  // Test files share one PostgreSQL database and run at once: each app gets its own queue tables, so a worker never
  // takes another app's jobs (and sends them through another test's mail server).
  const jobsSchema = url
    ? `pgboss_test_${unique()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")}`
    : undefined;
  const app = await buildApp({
    database,
    mail: { smtpUrl: opts.smtpUrl, from: "Cove <no-reply@cove.test>", outboxDir },
    publicUrl: "http://cove.test",
    jobs: {
      schema: jobsSchema,
      pollingIntervalSeconds: 0.5,
      stopTimeoutMs: opts.jobsStopTimeoutMs,
      mailRetry: { retryDelaySeconds: opts.mailRetryDelaySeconds ?? 1, retryLimit: opts.mailRetryLimit },
    },
    ai: opts.ai,
    answerCacheBytes: opts.answerCacheBytes,
    payments: opts.payments,
    logger: opts.logger,
    email: opts.email,
    mailboxes: opts.mailboxes,
    attachmentLimits: opts.attachmentLimits,
    webDist: opts.webDist,
    webhooks: opts.webhooks,
    metricsToken: opts.metricsToken,
    rateLimitScope: opts.rateLimitScope ?? `${unique()} `,
  });
  opts.setup?.(app);
  await app.ready();
  return {
    app,
    database,
    outboxDir,
    jobsSchema: jobsSchema ?? DEFAULT_JOBS_SCHEMA,
    close: async () => {
      await app.close();
      if (jobsSchema) await dropSchema(database, jobsSchema);
      await database.close();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app a test file runs against: `const t = testAppForFile()` at the top of the file builds it before the file's
 * first test and closes it after the last; the object returned is filled in by then.
 */
export function testAppForFile(opts: TestAppOptions = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(opts));
  });
  afterAll(() => t.close());
  return t;
}

/**
 * The same with a local SMTP server taking the app's mail (`const { t, smtp } = testAppWithMail()`): the server is
 * started first and closed last.
 */
export function testAppWithMail(opts: Omit<TestAppOptions, "smtpUrl"> = {}): { t: TestApp; smtp: TestSmtp } {
  const t = {} as TestApp;
  const smtp = {} as TestSmtp;
  beforeAll(async () => {
    Object.assign(smtp, await startSmtp());
    Object.assign(t, await createTestApp({ ...opts, smtpUrl: smtp.url }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  return { t, smtp };
}

/**
 * Drops a test's own job-queue schema. Dropping takes locks on every table of the schema, and a statement the stopped
 * queue still had in flight can hold one of them: PostgreSQL then ends one of the two with a deadlock, and dropping
 * again succeeds (only the teardown retries; nothing the test checks).
 */
async function dropSchema(database: Database, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await database.executeSql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

let template: Blob | undefined;

/** A new in-memory embedded database, migrated: a copy of the one global-setup.ts made. */
export async function embeddedTestDatabase(): Promise<Database> {
  template ??= new Blob([readFileSync(inject("embeddedTemplate"))]);
  return openDatabase({ kind: "embedded", dir: null, template });
}

let seq = 0;
/** A unique suffix, so tests sharing one PostgreSQL database never collide. */
export const unique = () =>
  `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export function registration(overrides: Partial<RegisterBody> = {}): RegisterBody {
  const id = unique();
  return {
    organizationName: `Org ${id}`,
    firstName: "Ada",
    lastName: "Lovelace",
    email: `ada-${id}@example.com`,
    password: "correct horse battery",
    ...overrides,
  };
}

/**
 * A documentation-range address of its own for each call: registrations are throttled per address, and a test that
 * sets up many organizations plays many people signing up.
 */
const addressRun = Math.floor(Math.random() * 0xffff).toString(16);
let addresses = 0;
export const newAddress = () => `2001:db8:${addressRun}:${(addresses++).toString(16)}::ffff`;

/** Registers a fresh organization through the real endpoint and returns its admin's session. */
export async function registerOrg(app: FastifyInstance, overrides: Partial<RegisterBody> = {}) {
  const body = registration(overrides);
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: body,
    remoteAddress: newAddress(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { ...(res.json() as AuthAnswer), password: body.password };
}

export type Org = Awaited<ReturnType<typeof registerOrg>>;

/**
 * An organization registered for the whole file once its app is built (`const shop = orgForFile(t)`): its admin's
 * session, filled in before the first test.
 */
export function orgForFile(t: TestApp): Org {
  const org = {} as Org;
  beforeAll(async () => {
    Object.assign(org, await registerOrg(t.app));
  });
  return org;
}

/** The API's error answer, exactly: its message, its code and the request's id (whatever it is). */
export const errorAnswer = (error: string, code: string) => ({ error, code, requestId: expect.any(String) });

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** Whoever calls: a session as registerOrg or addMember return it, a bare token (a customer's, an API key), or nobody. */
export type Caller = { token: string } | string | null;

/**
 * The API as a signed-in caller sees it: `const call = client(() => t.app)`, then `call(org, "GET", "/api/tickets")`.
 * The app is read at each call, so the client can be made before the app is built.
 */
export function client(app: () => FastifyInstance, opts: { newAddressEachCall?: boolean } = {}) {
  return (who: Caller, method: Method, url: string, payload?: unknown) => {
    const token = typeof who === "string" ? who : who?.token;
    return app().inject({
      method,
      url,
      ...(token ? { headers: bearer(token) } : {}),
      // Public routes are throttled per address: a test playing many visitors gives each call an address of its own.
      ...(opts.newAddressEachCall ? { remoteAddress: newAddress() } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  };
}

/** The answer's JSON when it has the status expected; otherwise the test fails, showing the body. */
export async function answered<T>(res: Promise<LightMyRequestResponse>, status: number): Promise<T> {
  const done = await res;
  if (done.statusCode !== status) throw new Error(`expected ${status}, got ${done.statusCode}: ${done.body}`);
  return done.json() as T;
}

/** A new ticket's fields, each replaceable. The subject mentions a refund, which automation tests match on. */
export const ticketFields = (overrides: Record<string, unknown> = {}) => ({
  subject: "Refund for a broken lamp",
  description: "It arrived in pieces.",
  requester_name: "Ana Ruiz",
  requester_email: "ana@example.com",
  ...overrides,
});

/** Creates a ticket through the API (POST /api/tickets) and returns it. */
export async function createTicket(app: FastifyInstance, who: Caller, overrides: Record<string, unknown> = {}) {
  const res = client(() => app)(who, "POST", "/api/tickets", ticketFields(overrides));
  return (await answered<{ ticket: Ticket }>(res, 201)).ticket;
}

/** Adds a public reply (or, with is_public false, a note) to a ticket through the API and returns it. */
export async function addComment(
  app: FastifyInstance,
  who: Caller,
  ticketId: string,
  overrides: Record<string, unknown> = {},
) {
  const res = client(() => app)(who, "POST", `/api/tickets/${ticketId}/comments`, {
    body: "Thanks, we are on it.",
    is_public: true,
    ...overrides,
  });
  return (await answered<{ comment: Comment }>(res, 201)).comment;
}

/** Saves Email Settings (PUT /api/settings/email) as given: no sender name, reply-to or signature unless given. */
export function saveEmailSettings(app: FastifyInstance, who: Caller, fields: Record<string, unknown>) {
  return client(() => app)(who, "PUT", "/api/settings/email", {
    sender_name: "",
    reply_to: null,
    signature: "",
    ...fields,
  });
}

/** Creates a knowledge-base article (a draft unless told otherwise) through the API and returns it. */
export async function createArticle(app: FastifyInstance, who: Caller, overrides: Record<string, unknown> = {}) {
  const res = client(() => app)(who, "POST", "/api/kb/articles", {
    title: `How to wax a ski ${unique()}`,
    body: "Warm the wax, then spread it thin.",
    ...overrides,
  });
  return (await answered<{ article: Article }>(res, 201)).article;
}

const TEST_DATA = path.resolve(import.meta.dirname, "../../../test-data");

/** The Big List of Naughty Strings (test-data/naughty-strings, MIT), as every text input is tested with it. */
export function naughtyStrings(): string[] {
  return JSON.parse(readFileSync(path.join(TEST_DATA, "naughty-strings/blns.json"), "utf8")) as string[];
}

/** Characters that break storage, encodings or display: controls, invisible and direction marks, lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
const RISKY = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\ufeff]|[\ud800-\udfff]|\p{M}{3,}/u;

/**
 * The naughty strings sent end to end (HTTP, the app, the database, and back) by the *-naughty tests: every one with
 * risky characters (see RISKY), the longest, and every sixth of the rest. All 515 go through the contract's schemas in
 * platform/naughty-schemas.test.ts, which is where the API decides what it keeps; this keeps the suite minutes shorter.
 */
export function naughtySample(): string[] {
  return naughtyStrings().filter((s, i) => i % 6 === 0 || RISKY.test(s) || [...s].length > 200);
}

/** The longest start of s that fits max UTF-16 units without splitting a character. */
export function fitLength(s: string, max: number): string {
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** XSS payload lines (test-data/xss-payloads, MIT), in the file's order. */
export function xssPayloads(): string[] {
  return readFileSync(path.join(TEST_DATA, "xss-payloads/xss-payload-list.txt"), "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

/**
 * Adds a team member to an organization directly (as the owner, past the invitation flow) with a session of their
 * own: for tests about what another member or role may do.
 */
export async function addMember(
  database: Database,
  orgId: string,
  opts: { role?: "agent" | "admin"; firstName?: string; lastName?: string } = {},
) {
  const [user] = await database.db
    .insert(users)
    .values({
      organizationId: orgId,
      email: `member-${unique()}@example.com`,
      firstName: opts.firstName ?? "Marco",
      lastName: opts.lastName ?? "Alvarez",
      role: opts.role ?? "agent",
    })
    .returning({ id: users.id, email: users.email });
  if (!user) throw new Error("member insert returned nothing");
  const token = newToken();
  await database.db.insert(sessions).values({
    organizationId: orgId,
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { ...user, token };
}
