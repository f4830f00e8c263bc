import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Ticket } from "@cove/contract/tickets.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { createTicket, registerOrg, unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";
import { type PgBouncer, startPgBouncer } from "../test/support/pgbouncer.ts";
import { connectRealtime } from "../test/support/realtime-client.ts";

/**
 * Connection pooling (docs/deploy.md): requests go through Debian's PgBouncer in transaction mode (DATABASE_URL), and
 * what needs a session of its own (LISTEN, the advisory locks of migrating and starting the job queue) goes straight
 * to PostgreSQL (DATABASE_DIRECT_URL). Statements are then sent unnamed: a name would live in one server session.
 */
const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

let bouncer: PgBouncer;
let dir: string;
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let http: string;

beforeAll(async () => {
  fresh = await freshPostgresDatabase(`pgbouncer_${unique()}`);
  bouncer = await startPgBouncer(fresh.url);
  dir = mkdtempSync(path.join(tmpdir(), "cove-pgbouncer-"));
  database = await openDatabase({ kind: "postgres", url: bouncer.url, directUrl: fresh.url });
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
  await bouncer?.stop();
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
