import path from "node:path";
import { buildApp } from "./app.ts";
import { DEMO_LOGIN, seedDemo } from "./db/seed.ts";
import {
  lexicon,
  loadEncoderCalibration,
  prepareAssistant,
  startSentenceEncoder,
  wordVectors,
} from "./modules/ai/index.ts";
import { runSlaRecomputes } from "./modules/automation/index.ts";
import { findDemoOrganization } from "./modules/demo/index.ts";
import { startReceiver } from "./modules/email/index.ts";
import { resetDemoCustomer } from "./modules/portal/index.ts";
import { ConfigError, loadConfig } from "./platform/config.ts";
import { DataDirLockedError, lockDataDir } from "./platform/data-dir-lock.ts";
import { openDatabase } from "./platform/db.ts";
import { prettyStream } from "./platform/logging.ts";
import { keyFromDataDir, SECRETS_KEY_FILE } from "./platform/secrets.ts";

async function main() {
  const config = loadConfig();
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl, directUrl: config.databaseDirectUrl }
      : { kind: "embedded", dir: path.join(config.dataDir, "db") },
  );
  const logger = {
    level: config.logLevel,
    redact: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.token"],
    ...(config.logFormat === "pretty" ? { stream: prettyStream() } : {}),
  };
  const app = await buildApp({
    database,
    mail: { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, "outbox") },
    publicUrl: config.publicUrl,
    logger,
    // The running jobs get the same grace as requests; those still running then are handed back to the queue.
    jobs: { stopTimeoutMs: config.shutdownGraceMs },
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    ai: config.ai,
    answerCacheBytes: config.answerCacheBytes,
    payments: config.payments,
    registrationsPerHour: config.registrationsPerHour,
    attachmentLimits: config.attachmentLimits,
    email: { inboundDomain: config.inboundDomain ?? null },
    mailboxes: {
      secretsKey: config.secretsKey ?? keyFromDataDir(config.dataDir),
      allowPrivateHosts: config.imapAllowPrivateHosts,
    },
    webhooks: { allowPrivateHosts: config.webhooksAllowPrivateHosts },
  });
  if (config.nodeEnv === "production" && config.payments.provider === "test") {
    app.log.warn("PAYMENT_PROVIDER is test: the public test cards pay for any plan and nothing is charged");
  }
  if (config.databaseUrl && !config.secretsKey) {
    app.log.warn(
      `SECRETS_KEY is not set: mailbox passwords are sealed with ${path.join(config.dataDir, SECRETS_KEY_FILE)}; instances sharing this database need one key (set SECRETS_KEY on each)`,
    );
  }
  // Load the assistant's word vectors and WordNet before the first visitor asks (about 0.1 s and 0.5 s; the vectors
  // take a second on the very first run), and start its sentence encoder's thread.
  wordVectors();
  lexicon();
  startSentenceEncoder();
  if (config.embeddings) {
    const { model, calibrationFile } = config.embeddings;
    const calibration = loadEncoderCalibration(calibrationFile, model);
    if (calibration !== "loaded")
      app.log.warn(
        `The confidence calibration of ${model} is ${calibration === "missing" ? "not fitted yet" : calibration === "other-model" ? "another model's" : "unreadable"} (${calibrationFile}): the embedded encoder's is used until \`npm run ai:calibrate\` fits it (docs/deploy.md)`,
      );
  }
  const seeded = config.seedDemo ? await seedDemo(database.db) : false;
  // The demo customer of /customer-portal is shared by every visitor: it starts from the same tickets each time.
  if (config.seedDemo) await resetDemoCustomer(database.db);
  // SLA due times still to be stored: the demo's tickets, and organizations whose recompute a stop interrupted.
  await runSlaRecomputes(database.db);
  // The demo's knowledge base read by the assistant in the background (its sentence vectors read back, or encoded on
  // the very first start), so the first question on /ai-test is answered with them.
  const demo = config.seedDemo ? await findDemoOrganization(database.db) : null;
  if (demo) {
    prepareAssistant(database.db, demo.id).catch((err: unknown) => {
      app.log.warn({ err }, "the demo's assistant was not prepared; its first question prepares it");
    });
  }

  // The email channel's receiver, only when asked for: it listens on a port of its own (25 behind a firewall, or a relay).
  const receiver =
    config.inboundSmtpPort !== undefined && config.inboundDomain
      ? await startReceiver({
          db: database.db,
          domain: config.inboundDomain,
          port: config.inboundSmtpPort,
          host: config.host,
          log: app.log,
          senderCheck: config.inboundSenderChecks ? { mta: config.inboundDomain } : null,
          attachmentLimits: config.attachmentLimits,
        })
      : null;

  // Draining (docs/deploy.md, "Restarts"): /api/ready answers 503 at once while every request is still served, for
  // DRAIN_DELAY_MS, so the load balancer sees it and sends new work elsewhere; then the server stops accepting
  // connections, finishes the requests in flight (up to SHUTDOWN_GRACE_MS), closes its sockets with 1001 (the browsers
  // reconnect through the load balancer and refetch), hands its running jobs back to the queue, and exits 0.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Ctrl-C at a terminal (SIGINT) is someone waiting at it: no load balancer to tell, so no delay.
    const delay = signal === "SIGTERM" ? config.drainDelayMs : 0;
    app.log.info(`${signal} received: draining for ${delay} ms, then shutting down`);
    app.lifecycle.drain();
    await new Promise((resolve) => setTimeout(resolve, delay));
    const grace = setTimeout(() => {
      app.log.warn(`requests still running after ${config.shutdownGraceMs} ms: closing their connections`);
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    grace.unref();
    try {
      await receiver?.close();
      await app.close();
      await database.close();
    } finally {
      clearTimeout(grace);
      unlock();
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const where = database.kind === "embedded" ? `embedded database in ${config.dataDir}` : "PostgreSQL";
  const shown = ["127.0.0.1", "::1", "localhost", "0.0.0.0", "::"].includes(config.host) ? "localhost" : config.host;
  console.log(`\nCove is running at http://${shown}:${port} (${where})`);
  if (config.host === "127.0.0.1" || config.host === "localhost") {
    console.log("Only this computer can open it; set HOST=0.0.0.0 to listen on every interface.");
  }
  if (config.seedDemo) {
    console.log(`Demo sign-in${seeded ? " (just created)" : ""}: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  }
  if (receiver) console.log(`Inbound mail for *@${config.inboundDomain} on SMTP port ${receiver.port}`);
  console.log("API documentation: /api/docs\n");
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error("Cove could not start:", err);
  }
  process.exit(1);
});
