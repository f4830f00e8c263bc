import path from "node:path";
import type { AttachmentLimits } from "@cove/contract/attachment-limits.ts";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGE_MAX_BYTES,
  ATTACHMENTS_PER_MESSAGE,
} from "@cove/contract/attachments.ts";
import { REGISTRATIONS_PER_HOUR } from "@cove/contract/constants.ts";
import { z } from "zod";
import { parseSecretsKey } from "./secrets.ts";

const boolFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "use true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** A size in whole megabytes, within bounds (the files are kept in the database: keep them modest). */
const megabytes = (min: number, max: number) =>
  z.coerce
    .number({ error: "must be a number of megabytes" })
    .int("must be a whole number of megabytes")
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`);

/** AI_ENCODER_WAIT_MS unset: a question never waits for its knowledge base's sentence vectors (tests set it). */
export const AI_ENCODER_WAIT_MS_DEFAULT = 0;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 65535")
    .max(65535, "must be between 0 and 65535")
    .default(3000),
  /** Only this computer by default; 0.0.0.0 (every interface) in a container or behind a proxy on another host. */
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /** Straight to PostgreSQL when DATABASE_URL is a pooler (PgBouncer, transaction mode): LISTEN, session locks. */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PUBLIC_URL: z.url("must be a URL such as https://help.example.com").optional(),
  SEED_DEMO: boolFromEnv.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Cove <no-reply@localhost>"),
  INBOUND_SMTP_PORT: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 65535")
    .max(65535, "must be between 0 and 65535")
    .optional(),
  INBOUND_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
      "must be a domain name such as mail.example.com",
    )
    .optional(),
  /** SPF, DKIM and DMARC checks of received mail (off when a mail server in front of Cove already checks). */
  INBOUND_SENDER_CHECKS: boolFromEnv.default(true),
  /** The key that encrypts stored secrets (mailbox passwords); unset: a key file made in DATA_DIR. */
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, "must be 32 random bytes as 64 hex digits (openssl rand -hex 32)")
    .optional(),
  /** Mailboxes on loopback, private or link-local addresses (off: an admin cannot reach the server's own network). */
  IMAP_ALLOW_PRIVATE_HOSTS: boolFromEnv.default(false),
  /** Webhooks to loopback, private, link-local or metadata addresses, and over http (off: https to the internet only). */
  WEBHOOKS_ALLOW_PRIVATE_HOSTS: boolFromEnv.default(false),
  TRUST_PROXY: boolFromEnv.default(false),
  /** After SIGTERM: how long /api/ready answers 503 while every request is still served (the load balancer's notice). */
  DRAIN_DELAY_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(0, "must be between 0 and 300000")
    .max(300_000, "must be between 0 and 300000")
    .default(5_000),
  /** Then: how long requests in flight and running jobs may take to finish before they are cut off (jobs: retried). */
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(1_000, "must be between 1000 and 600000")
    .max(600_000, "must be between 1000 and 600000")
    .default(25_000),
  /** The bearer token a Prometheus scraper sends to GET /metrics; unset: /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (openssl rand -hex 32)").optional(),
  /** Unset: info in production, warn otherwise (a terminal shows problems, not one line per request). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  /** Unset: json in production (one object per line, for a log collector), pretty otherwise (for a person). */
  LOG_FORMAT: z.enum(["pretty", "json"], { error: "use pretty or json" }).optional(),
  AI_PROVIDER: z.enum(["embedded", "openai"], { error: "use embedded or openai" }).default("embedded"),
  AI_BASE_URL: z.url("must be a URL such as https://api.openai.com/v1").optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).max(200).optional(),
  AI_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be between 100 and 120000")
    .max(120_000, "must be between 100 and 120000")
    .default(10_000),
  /** The embedded assistant's sentence encoder (modules/ai/sentence-encoder.ts); false: words and word vectors only. */
  AI_SENTENCE_ENCODER: boolFromEnv.default(true),
  /**
   * How long a question may wait for its knowledge base's sentence vectors to be complete; 0: never, it is answered
   * with those there are (tests and benchmarks set it, so their figures never depend on timing).
   */
  AI_ENCODER_WAIT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(0, "must be between 0 and 600000")
    .max(600_000, "must be between 0 and 600000")
    .default(AI_ENCODER_WAIT_MS_DEFAULT),
  /** An OpenAI-compatible embeddings endpoint as the sentence encoder (modules/ai/embeddings-endpoint.ts). */
  AI_EMBEDDINGS_URL: z.url("must be a URL such as http://localhost:11434/v1").optional(),
  AI_EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  AI_EMBEDDINGS_KEY: z.string().min(1).optional(),
  AI_EMBEDDINGS_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be between 100 and 120000")
    .max(120_000, "must be between 100 and 120000")
    .default(10_000),
  /** Where `npm run ai:calibrate` writes the model's calibration and the app reads it (default: in DATA_DIR). */
  AI_EMBEDDINGS_CALIBRATION: z.string().min(1).optional(),
  PAYMENT_PROVIDER: z.enum(["test", "stripe"], { error: "use test or stripe" }).default("test"),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe secret key (sk_test_... or sk_live_...)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe publishable key (pk_test_... or pk_live_...)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9]+$/, "must be a Stripe webhook signing secret (whsec_...)")
    .optional(),
  ANSWER_CACHE_MB: z.coerce
    .number({ error: "must be a number of megabytes" })
    .int("must be a whole number of megabytes")
    .min(0, "must be between 0 and 4096")
    .max(4096, "must be between 0 and 4096")
    .default(64),
  REGISTRATIONS_PER_HOUR: z.coerce
    .number({ error: "must be a number of sign-ups" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 100000")
    .max(100_000, "must be between 1 and 100000")
    .default(REGISTRATIONS_PER_HOUR),
  ATTACHMENT_MAX_FILE_MB: megabytes(1, 100).default(ATTACHMENT_MAX_BYTES / 1024 / 1024),
  ATTACHMENT_MAX_MESSAGE_MB: megabytes(1, 1000).default(ATTACHMENT_MESSAGE_MAX_BYTES / 1024 / 1024),
  ATTACHMENTS_PER_MESSAGE: z.coerce
    .number({ error: "must be a number of files" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 100")
    .max(100, "must be between 1 and 100")
    .default(ATTACHMENTS_PER_MESSAGE),
});

/** The assistant's provider: the embedded one (no network, no key) or an OpenAI-compatible chat-completions API. */
export type AiConfig =
  | { provider: "embedded" }
  | { provider: "openai"; baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number };

/** Which card provider takes payments: Cove's own test provider (no account anywhere), or Stripe. */
export type PaymentConfig =
  | { provider: "test" }
  | {
      provider: "stripe";
      secretKey: string;
      publishableKey: string;
      webhookSecret: string;
      /** Tests point the SDK at a local server that speaks Stripe's API. */
      api?: { host: string; port: number; protocol: "http" | "https" };
    };

export type Config = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_DIRECT_URL, or DATABASE_URL when unset (no pooler in between). */
  databaseDirectUrl: string | undefined;
  publicUrl: string;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The email channel's SMTP receiver: its port (off when unset) and the domain of the organizations' addresses. */
  inboundSmtpPort: number | undefined;
  inboundDomain: string | undefined;
  inboundSenderChecks: boolean;
  /** SECRETS_KEY, when set (else main.ts uses the key file in DATA_DIR). */
  secretsKey: Buffer | undefined;
  /** IMAP mailboxes may be on loopback and private addresses. */
  imapAllowPrivateHosts: boolean;
  /** Webhooks may go to loopback and private addresses, and over http. */
  webhooksAllowPrivateHosts: boolean;
  logLevel: string;
  logFormat: "pretty" | "json";
  trustProxy: boolean;
  /** After SIGTERM: readiness 503 for drainDelayMs, then up to shutdownGraceMs for requests and jobs to finish. */
  drainDelayMs: number;
  shutdownGraceMs: number;
  /** GET /metrics' bearer token (METRICS_TOKEN); /metrics answers 404 without one. */
  metricsToken: string | undefined;
  ai: AiConfig;
  /**
   * The embeddings endpoint's model and the file of its calibration, when AI_EMBEDDINGS_URL is set (the encoder
   * itself reads AI_EMBEDDINGS_* as the sentence encoder reads AI_SENTENCE_ENCODER).
   */
  embeddings: { model: string; calibrationFile: string } | null;
  /** Memory for cached answers, in bytes; 0: off. */
  answerCacheBytes: number;
  payments: PaymentConfig;
  /** Organizations one address may register per hour. */
  registrationsPerHour: number;
  /** Files: the largest one, the most bytes and files of one message (a reply, a new ticket, an email). */
  attachmentLimits: AttachmentLimits;
};

export class ConfigError extends Error {}

/** Parses the environment once at start-up; a bad value stops the process with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to the empty string counts as unset, as shells and .env files commonly write it.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.AI_PROVIDER === "openai") {
    const missing = [
      ...(e.AI_BASE_URL ? [] : ["  AI_BASE_URL: required when AI_PROVIDER is openai"]),
      ...(e.AI_MODEL ? [] : ["  AI_MODEL: required when AI_PROVIDER is openai"]),
    ];
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join("\n")}`);
  }
  if (Boolean(e.AI_EMBEDDINGS_URL) !== Boolean(e.AI_EMBEDDINGS_MODEL)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.AI_EMBEDDINGS_URL ? "AI_EMBEDDINGS_MODEL: required when AI_EMBEDDINGS_URL is set (the model to ask for, such as nomic-embed-text)" : "AI_EMBEDDINGS_URL: required when AI_EMBEDDINGS_MODEL is set (the endpoint's address, such as http://localhost:11434/v1)"}`,
    );
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_DIRECT_URL: set it with DATABASE_URL (the pooler's address), or not at all",
    );
  }
  if (e.INBOUND_SMTP_PORT !== undefined && !e.INBOUND_DOMAIN) {
    throw new ConfigError(
      "Invalid configuration:\n  INBOUND_DOMAIN: required when INBOUND_SMTP_PORT is set (the domain of the inbound addresses)",
    );
  }
  // The test provider accepts the public test cards and moves its own billing clock: a production install uses it only
  // when someone chose it, never by default.
  if (e.NODE_ENV === "production" && present.PAYMENT_PROVIDER === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  PAYMENT_PROVIDER: required when NODE_ENV is production (stripe; or test, whose public test cards pay for any plan without a charge)",
    );
  }
  if (e.PAYMENT_PROVIDER === "stripe") {
    const missing = (["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const)
      .filter((name) => !e[name])
      .map((name) => `  ${name}: required when PAYMENT_PROVIDER is stripe`);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join("\n")}`);
  }
  const payments: PaymentConfig =
    e.PAYMENT_PROVIDER === "stripe" && e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
      ? {
          provider: "stripe",
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
        }
      : { provider: "test" };
  const ai: AiConfig =
    e.AI_PROVIDER === "openai" && e.AI_BASE_URL && e.AI_MODEL
      ? {
          provider: "openai",
          baseUrl: e.AI_BASE_URL,
          apiKey: e.AI_API_KEY,
          model: e.AI_MODEL,
          timeoutMs: e.AI_TIMEOUT_MS,
        }
      : { provider: "embedded" };
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    seedDemo: e.SEED_DEMO,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    inboundSmtpPort: e.INBOUND_SMTP_PORT,
    inboundDomain: e.INBOUND_DOMAIN,
    inboundSenderChecks: e.INBOUND_SENDER_CHECKS,
    secretsKey: e.SECRETS_KEY ? (parseSecretsKey(e.SECRETS_KEY) ?? undefined) : undefined,
    imapAllowPrivateHosts: e.IMAP_ALLOW_PRIVATE_HOSTS,
    webhooksAllowPrivateHosts: e.WEBHOOKS_ALLOW_PRIVATE_HOSTS,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "production" ? "info" : "warn"),
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === "production" ? "json" : "pretty"),
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    drainDelayMs: e.DRAIN_DELAY_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    ai,
    embeddings:
      e.AI_EMBEDDINGS_URL && e.AI_EMBEDDINGS_MODEL
        ? {
            model: e.AI_EMBEDDINGS_MODEL,
            calibrationFile: path.resolve(
              e.AI_EMBEDDINGS_CALIBRATION ?? path.join(e.DATA_DIR, "embeddings-calibration.json"),
            ),
          }
        : null,
    answerCacheBytes: e.ANSWER_CACHE_MB * 1024 * 1024,
    payments,
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    attachmentLimits: {
      max_file_bytes: e.ATTACHMENT_MAX_FILE_MB * 1024 * 1024,
      max_message_bytes: Math.max(e.ATTACHMENT_MAX_MESSAGE_MB, e.ATTACHMENT_MAX_FILE_MB) * 1024 * 1024,
      max_files: e.ATTACHMENTS_PER_MESSAGE,
    },
  };
}
