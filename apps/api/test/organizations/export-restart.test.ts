import { hostname } from "node:os";
import type { DataExport } from "@cove/contract/settings.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { EXPORT_OWNER, ownerIsGone } from "../../src/modules/organizations/export.service.ts";
import { queryRows } from "../../src/platform/db.ts";
import { client, createTestApp, registerOrg, type TestApp } from "../helpers.ts";

/**
 * An export interrupted by a crash (its row left "running", its job still taken in the queue) is found at the next
 * start and resumed at once, not after the queue's 30-minute expiry; a lapsed claim never blocks a new export.
 */

let t: TestApp;
/** The app after the restart. */
let app: FastifyInstance;
const call = client(() => app);
/** A pid above Linux's largest (4194304): no process has it. */
const NO_SUCH_PID = 4_194_305;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => {
  if (app !== t.app) await app.close();
  await t.close();
});

/** A row as a process that crashed mid-export leaves it: running, claimed, its lease not yet run out. */
async function leftRunning(orgId: string, owner: string, leaseSeconds = 50): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`insert into organization_exports (organization_id, status, progress, lease_owner, lease_until)
        values (${orgId}, 'running', 40, ${owner}, now() + ${`${leaseSeconds} seconds`}::interval) returning id`,
  );
  if (!row) throw new Error("no export row");
  return row.id;
}

async function settled(token: string, id: string): Promise<DataExport> {
  const until = Date.now() + 30_000;
  for (;;) {
    const current = (await call(token, "GET", "/api/organization/export")).json().export as DataExport;
    expect(current.id).toBe(id);
    if (current.status === "done" || current.status === "failed") return current;
    if (Date.now() > until) throw new Error(`export never finished: ${JSON.stringify(current)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("an export interrupted by a crash", () => {
  it("tells a gone process from a live one by host and pid (and boot, when a pid comes back)", () => {
    expect(ownerIsGone(`${hostname()}:${NO_SUCH_PID}:boot`)).toBe(true);
    expect(ownerIsGone(`${hostname()}:${process.pid}:an-earlier-boot`)).toBe(true);
    expect(ownerIsGone(EXPORT_OWNER)).toBe(false);
    expect(ownerIsGone(`${hostname()}:${process.ppid}:boot`)).toBe(false);
    expect(ownerIsGone(`another-host:${NO_SUCH_PID}:boot`)).toBe(false);
  });

  it("is resumed at the next start and finishes; a new export is then possible at once", async () => {
    const a = await registerOrg(app);
    const b = await registerOrg(app);
    // The previous start of this process (same pid in a container, or a pid now gone) crashed mid-export.
    const crashed = await leftRunning(a.user.organizationId, `${hostname()}:${process.pid}:the-crashed-boot`);
    const killed = await leftRunning(b.user.organizationId, `${hostname()}:${NO_SUCH_PID}:a-killed-boot`);

    await t.app.close();
    app = await buildApp({
      database: t.database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: t.outboxDir },
      publicUrl: "http://cove.test",
      jobs: { schema: t.jobsSchema, pollingIntervalSeconds: 0.5 },
    });
    await app.ready();

    for (const [who, id] of [
      [a, crashed],
      [b, killed],
    ] as const) {
      expect(await settled(who.token, id)).toMatchObject({ status: "done", progress: 100, error: null });
      const again = await call(who.token, "POST", "/api/organization/export");
      expect(again.statusCode).toBe(202);
      expect(again.json().export).toMatchObject({ status: "queued" });
      expect(again.json().export.id).not.toBe(id);
    }
  });

  it("a claim whose lease ran out (its host is gone) never blocks: a new export starts and the old one says why", async () => {
    const a = await registerOrg(app);
    const lapsed = await leftRunning(a.user.organizationId, `another-host:${NO_SUCH_PID}:boot`, -5);
    const started = await call(a.token, "POST", "/api/organization/export");
    expect(started.statusCode).toBe(202);
    expect(started.json().export.id).not.toBe(lapsed);
    const [old] = await queryRows<{ status: string; error: string }>(
      t.database.db,
      sql`select status, error from organization_exports where id = ${lapsed}`,
    );
    expect(old).toEqual({ status: "failed", error: "The export was interrupted. Please try again." });
    expect(await settled(a.token, started.json().export.id)).toMatchObject({ status: "done" });
  });

  it("a live claim of another process still answers as the export under way", async () => {
    const a = await registerOrg(app);
    const live = await leftRunning(a.user.organizationId, `another-host:${NO_SUCH_PID}:boot`, 50);
    const again = await call(a.token, "POST", "/api/organization/export");
    expect(again.json().export).toMatchObject({ id: live, status: "running" });
  });
});
