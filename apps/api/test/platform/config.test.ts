import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { prettyLine } from "../../src/platform/logging.ts";

/** The ConfigError loadConfig throws for env; fails the test when it does not throw one. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: "sk_live_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
};

describe("loadConfig", () => {
  it("refuses to start in production unless PAYMENT_PROVIDER is chosen (the test provider only when set)", () => {
    for (const unset of [{}, { PAYMENT_PROVIDER: "" }]) {
      const message = configError({ NODE_ENV: "production", ...unset }).message;
      expect(message).toContain("PAYMENT_PROVIDER: required when NODE_ENV is production");
    }
    expect(loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "test" }).payments).toEqual({ provider: "test" });
    expect(loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "stripe", ...STRIPE_KEYS }).payments).toMatchObject({
      provider: "stripe",
      secretKey: "sk_live_abc",
    });
    // Development and tests keep the test provider by default: nothing to set up to try Cove.
    expect(loadConfig({}).payments).toEqual({ provider: "test" });
    expect(loadConfig({ NODE_ENV: "test" }).payments).toEqual({ provider: "test" });
  });

  it("reads the running-several-instances settings: metrics token, draining times, the direct database address", () => {
    const defaults = loadConfig({});
    expect([defaults.metricsToken, defaults.drainDelayMs, defaults.shutdownGraceMs]).toEqual([
      undefined,
      5_000,
      25_000,
    ]);
    const set = loadConfig({
      METRICS_TOKEN: "0123456789abcdef0123",
      DRAIN_DELAY_MS: "0",
      SHUTDOWN_GRACE_MS: "60000",
      DATABASE_URL: "postgres://cove@pgbouncer:6432/cove",
      DATABASE_DIRECT_URL: "postgres://cove@db:5432/cove",
    });
    expect(set).toMatchObject({
      metricsToken: "0123456789abcdef0123",
      drainDelayMs: 0,
      shutdownGraceMs: 60_000,
      databaseUrl: "postgres://cove@pgbouncer:6432/cove",
      databaseDirectUrl: "postgres://cove@db:5432/cove",
    });
    // No pooler: the direct address is the only one.
    expect(loadConfig({ DATABASE_URL: "postgres://cove@db/cove" }).databaseDirectUrl).toBe("postgres://cove@db/cove");
    expect(configError({ METRICS_TOKEN: "short" }).message).toContain("METRICS_TOKEN: must be at least 16 characters");
    expect(configError({ DRAIN_DELAY_MS: "soon" }).message).toContain(
      "DRAIN_DELAY_MS: must be a number of milliseconds",
    );
    expect(configError({ SHUTDOWN_GRACE_MS: "10" }).message).toContain("SHUTDOWN_GRACE_MS: must be between 1000");
    expect(configError({ DATABASE_DIRECT_URL: "postgres://cove@db/cove" }).message).toContain(
      "DATABASE_DIRECT_URL: set it with DATABASE_URL",
    );
  });

  it("starts with safe defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.mailFrom).toBe("Cove <no-reply@localhost>");
    expect(config.smtpUrl).toBeUndefined();
    expect(config.registrationsPerHour).toBe(5);
  });

  it("listens on this computer only, with quiet readable logs, unless told otherwise; JSON logs in production", () => {
    const local = loadConfig({});
    expect([local.host, local.logLevel, local.logFormat]).toEqual(["127.0.0.1", "warn", "pretty"]);
    const production = loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "stripe", ...STRIPE_KEYS });
    expect([production.logLevel, production.logFormat]).toEqual(["info", "json"]);
    const chosen = loadConfig({ HOST: "0.0.0.0", LOG_LEVEL: "debug", LOG_FORMAT: "json" });
    expect([chosen.host, chosen.logLevel, chosen.logFormat]).toEqual(["0.0.0.0", "debug", "json"]);
    expect(configError({ LOG_FORMAT: "xml" }).message).toMatch(/\bLOG_FORMAT\b/);
  });

  it("prints a log line for a person: time, level, message, the request and the error's stack", () => {
    const line = prettyLine(
      JSON.stringify({
        level: 50,
        time: Date.UTC(2026, 0, 1, 12, 0, 0),
        msg: "boom",
        req: { method: "GET", url: "/api/x" },
        res: { statusCode: 500 },
        err: { message: "boom", stack: "Error: boom\n    at here" },
      }),
    );
    expect(line).toMatch(/^\d\d:\d\d:\d\d ERROR boom \(GET \/api\/x 500\)\nError: boom\n {4}at here\n$/);
    expect(prettyLine("not json")).toBe("not json\n");
  });

  it("takes REGISTRATIONS_PER_HOUR, and refuses a value that is not a positive whole number", () => {
    expect(loadConfig({ REGISTRATIONS_PER_HOUR: "50" }).registrationsPerHour).toBe(50);
    for (const bad of ["0", "-1", "2.5", "many"]) {
      expect(configError({ REGISTRATIONS_PER_HOUR: bad }).message).toMatch(/\bREGISTRATIONS_PER_HOUR\b/);
    }
  });

  it("takes the files' limits (today's 5 MB, 50 MB and 10 files by default), refusing what is not a sensible size", () => {
    expect(loadConfig({}).attachmentLimits).toEqual({
      max_file_bytes: 5 * 1024 * 1024,
      max_message_bytes: 50 * 1024 * 1024,
      max_files: 10,
    });
    expect(
      loadConfig({ ATTACHMENT_MAX_FILE_MB: "20", ATTACHMENT_MAX_MESSAGE_MB: "40", ATTACHMENTS_PER_MESSAGE: "3" })
        .attachmentLimits,
    ).toEqual({ max_file_bytes: 20 * 1024 * 1024, max_message_bytes: 40 * 1024 * 1024, max_files: 3 });
    // A message holds at least one whole file.
    expect(loadConfig({ ATTACHMENT_MAX_FILE_MB: "20", ATTACHMENT_MAX_MESSAGE_MB: "8" }).attachmentLimits).toMatchObject(
      {
        max_message_bytes: 20 * 1024 * 1024,
      },
    );
    for (const name of ["ATTACHMENT_MAX_FILE_MB", "ATTACHMENT_MAX_MESSAGE_MB", "ATTACHMENTS_PER_MESSAGE"]) {
      for (const bad of ["0", "-1", "2.5", "lots", "100000"]) {
        expect(configError({ [name]: bad }).message).toMatch(new RegExp(`\\b${name}\\b`));
      }
    }
  });

  it("takes every documented variable from the environment", () => {
    const config = loadConfig({
      PORT: "8080",
      DATA_DIR: "/var/lib/cove",
      DATABASE_URL: "postgres://cove:secret@db:5432/cove",
      PUBLIC_URL: "https://help.example.com",
      SEED_DEMO: "false",
      SMTP_URL: "smtp://user:pass@mail.example.com:587",
      MAIL_FROM: "Help <help@example.com>",
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: "/var/lib/cove",
      databaseUrl: "postgres://cove:secret@db:5432/cove",
      publicUrl: "https://help.example.com",
      seedDemo: false,
      smtpUrl: "smtp://user:pass@mail.example.com:587",
      mailFrom: "Help <help@example.com>",
    });
  });

  it("resolves a relative DATA_DIR to an absolute path", () => {
    expect(loadConfig({ DATA_DIR: "some/where" }).dataDir).toBe(path.resolve("some/where"));
  });

  it("builds the default PUBLIC_URL from PORT", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
  });

  it("rejects a PORT that is not a number, naming PORT", () => {
    const err = configError({ PORT: "abc" });
    expect(err.message).toMatch(/\bPORT\b/);
    expect(err.message).toContain("must be a number");
  });

  it("rejects a PORT out of range, naming PORT", () => {
    expect(configError({ PORT: "70000" }).message).toMatch(/\bPORT\b/);
    expect(configError({ PORT: "-1" }).message).toMatch(/\bPORT\b/);
  });

  it("reads an empty PORT as unset (3000), never as port 0", () => {
    // An empty DATABASE_URL or SMTP_URL counts as unset, and so does an empty PORT: port 0 would be a random port,
    // and email links to http://localhost:0.
    const config = loadConfig({ PORT: "" });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("rejects a DATABASE_URL that is not PostgreSQL, naming DATABASE_URL", () => {
    const err = configError({ DATABASE_URL: "mysql://x" });
    expect(err.message).toMatch(/\bDATABASE_URL\b/);
    expect(err.message).toContain("postgres://");
  });

  it("treats an empty DATABASE_URL as unset (the embedded database)", () => {
    expect(loadConfig({ DATABASE_URL: "" }).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: "postgresql://h/db" }).databaseUrl).toBe("postgresql://h/db");
  });

  it("reads SEED_DEMO as a boolean", () => {
    expect(loadConfig({ SEED_DEMO: "false" }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: "0" }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: "true" }).seedDemo).toBe(true);
  });

  it("rejects a SEED_DEMO that is neither true nor false, naming SEED_DEMO", () => {
    const err = configError({ SEED_DEMO: "maybe" });
    expect(err.message).toMatch(/\bSEED_DEMO\b/);
    expect(err.message).toMatch(/true or false/);
  });

  it("checks the sentence encoder's settings at start, naming the variable", () => {
    expect(() => loadConfig({ AI_SENTENCE_ENCODER: "false", AI_ENCODER_WAIT_MS: "0" })).not.toThrow();
    expect(configError({ AI_SENTENCE_ENCODER: "off" }).message).toMatch(/AI_SENTENCE_ENCODER: use true or false/);
    expect(configError({ AI_ENCODER_WAIT_MS: "soon" }).message).toMatch(/AI_ENCODER_WAIT_MS: must be a number/);
    expect(configError({ AI_ENCODER_WAIT_MS: "-1" }).message).toMatch(/AI_ENCODER_WAIT_MS: must be between 0/);
  });

  it("removes trailing slashes from PUBLIC_URL, so links never hold //", () => {
    expect(loadConfig({ PUBLIC_URL: "https://help.example.com/" }).publicUrl).toBe("https://help.example.com");
    expect(loadConfig({ PUBLIC_URL: "https://example.com/help//" }).publicUrl).toBe("https://example.com/help");
  });

  it("rejects a PUBLIC_URL that is not a URL, naming PUBLIC_URL", () => {
    expect(configError({ PUBLIC_URL: "help desk" }).message).toMatch(/\bPUBLIC_URL\b/);
  });

  it("rejects an SMTP_URL that is not smtp:// or smtps://, naming SMTP_URL", () => {
    expect(configError({ SMTP_URL: "http://mail.example.com" }).message).toMatch(/\bSMTP_URL\b/);
  });

  it("reads ANSWER_CACHE_MB as the answer cache's budget, 64 MB by default and 0 for off", () => {
    expect(loadConfig({}).answerCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ ANSWER_CACHE_MB: "8" }).answerCacheBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ ANSWER_CACHE_MB: "0" }).answerCacheBytes).toBe(0);
    for (const bad of ["-1", "lots", "1.5", "5000"]) {
      expect(configError({ ANSWER_CACHE_MB: bad }).message, bad).toMatch(/\bANSWER_CACHE_MB\b/);
    }
  });

  it("lists every bad variable at once", () => {
    const err = configError({ PORT: "abc", SEED_DEMO: "maybe", DATABASE_URL: "mysql://x" });
    for (const name of ["PORT", "SEED_DEMO", "DATABASE_URL"]) expect(err.message).toContain(name);
  });
});
