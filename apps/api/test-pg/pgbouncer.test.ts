import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Ticket } from "@cove/contract/tickets.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { createTicket, registerOrg, unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";
import { connectRealtime } from "../test/support/realtime-client.ts";

/**
 * Connection pooling (docs/deploy.md): requests go through Debian's PgBouncer in transaction mode (DATABASE_URL), and
 * what needs a session of its own (LISTEN, the advisory locks of migrating and starting the job queue) goes straight
 * to PostgreSQL (DATABASE_DIRECT_URL). Statements are then sent unnamed: a name would live in one server session.
 */
const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

let bouncer: ChildProcess;
let dir: string;
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let http: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

beforeAll(async () => {
  fresh = await freshPostgresDatabase(`pgbouncer_${unique()}`);
  const direct = new URL(fresh.url);
  const port = await freePort();
  dir = mkdtempSync(path.join(tmpdir(), "cove-pgbouncer-"));
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${direct.hostname} port=${direct.port || 5432} user=${decodeURIComponent(direct.username || "postgres")}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      "default_pool_size = 5",
      "max_client_conn = 200",
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root; -u makes it switch to PostgreSQL's user.
  const asRoot = process.getuid?.() === 0;
  bouncer = spawn("pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  bouncer.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/listening on 127\.0\.0\.1:\d+/.test(log)) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    bouncer.on("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`pgbouncer exited (${code}):\n${log}`));
    });
  });
  const pooled = new URL(fresh.url);
  pooled.host = `127.0.0.1:${port}`;
  database = await openDatabase({ kind: "postgres", url: pooled.toString(), directUrl: fresh.url });
  const outboxDir = path.join(dir, "outbox");
  app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir },
    publicUrl: "http://cove.test",
  });
  http = await app.listen({ port: 0, host: "127.0.0.1" });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  bouncer?.kill("SIGTERM");
  await fresh?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("through PgBouncer in transaction mode", () => {
  it("serves requests at once, and live updates through the direct connection", async () => {
    const org = await registerOrg(app);
    expect((await app.inject({ method: "GET", url: "/api/ready" })).json()).toEqual({ status: "ready" });
    const socket = await connectRealtime(http);
    await socket.join(org.token, ["tickets"]);

    // More requests at once than the pooler has server connections (5): each transaction takes whichever is free.
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTicket(app, org, { subject: `Pooled ${i}` })),
    );
    const list = await app.inject({
      method: "GET",
      url: "/api/tickets?limit=50",
      headers: { authorization: `Bearer ${org.token}` },
    });
    expect(list.statusCode, list.body).toBe(200);
    const ids = (list.json() as { tickets: Ticket[] }).tickets.map((t) => t.id);
    expect(ids.sort()).toEqual(created.map((t) => t.id).sort());
    // The same statements again (they were prepared under names before the pooler): still answered.
    for (let i = 0; i < 5; i++) {
      const again = await app.inject({
        method: "GET",
        url: `/api/tickets/${created[i]?.id}`,
        headers: { authorization: `Bearer ${org.token}` },
      });
      expect(again.statusCode, again.body).toBe(200);
    }
    // Every committed ticket's event reached the socket (NOTIFY in the transaction, LISTEN on the direct connection).
    for (const ticket of created) {
      await socket.next(
        (f) => f.type === "event" && f.event.type === "ticket.created" && f.event.data.ticket_id === ticket.id,
      );
    }
    socket.close();
  }, 120_000);
});
