import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AuthAnswer } from "@cove/contract/auth.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/platform/db.ts";
import { addMember, registration } from "../test/helpers.ts";
import { spawnCove } from "../test/support/cove-process.ts";
import { connectRealtime, type RealtimeClient } from "../test/support/realtime-client.ts";

/**
 * Scale-out (docs/engineering.md, "Events"): two app processes on one PostgreSQL share nothing but the database. A change
 * committed through one reaches a browser connected to the other, through NOTIFY; so does presence.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error("The two-instance suite needs TEST_DATABASE_URL (a PostgreSQL database).");

const children: ChildProcess[] = [];
const dirs: string[] = [];
const sockets: RealtimeClient[] = [];

async function startInstance(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cove-instance-"));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_DATABASE_URL: undefined };
  Object.assign(env, {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
  });
  const child = spawnCove(env);
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start: ${out}`)), 90_000);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("exit", (code) => reject(new Error(`instance exited with ${code}: ${out}`)));
  });
}

let one: string;
let two: string;
beforeAll(async () => {
  [one, two] = await Promise.all([startInstance(), startInstance()]);
}, 120_000);
afterAll(() => {
  for (const s of sockets) s.close();
  for (const c of children) c.kill("SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function post<T>(base: string, route: string, body: object, token?: string): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe("two instances on one PostgreSQL", () => {
  it("delivers a ticket change made through instance 1 to a socket on instance 2, and presence both ways", async () => {
    const org = await post<AuthAnswer>(one, "/api/auth/register", registration());
    const watcher = await connectRealtime(two);
    sockets.push(watcher);
    await watcher.join(org.token, ["tickets"]);

    const { ticket } = await post<{ ticket: { id: string } }>(
      one,
      "/api/tickets",
      { subject: "Across instances", description: "Hello", requester_name: "Ana", requester_email: "ana@example.com" },
      org.token,
    );
    const started = Date.now();
    const frame = await watcher.next(
      (f) => f.type === "event" && f.event.type === "ticket.created" && f.event.data.ticket_id === ticket.id,
    );
    expect(frame).toMatchObject({ topic: "tickets" });
    expect(Date.now() - started).toBeLessThan(5_000);

    // Presence crosses too: the admin views the ticket through instance 1, a teammate through instance 2.
    const database = await openDatabase({ kind: "postgres", url: url as string });
    const teammate = await addMember(database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    await database.close();
    const topic = `ticket:${ticket.id}`;
    const admin = await connectRealtime(one);
    sockets.push(admin);
    await admin.join(org.token, [topic]);
    const priya = await connectRealtime(two);
    sockets.push(priya);
    await priya.join(teammate.token, [topic]);
    const adminName = `${org.user.firstName} ${org.user.lastName}`;
    await priya.next((f) => f.type === "presence" && f.viewers.some((v) => v.name === adminName));
    await admin.next((f) => f.type === "presence" && f.viewers.some((v) => v.name === "Priya Shah"));
    admin.send({ type: "typing", topic });
    await priya.next((f) => f.type === "presence" && f.viewers.some((v) => v.name === adminName && v.typing));
    admin.close();
    await priya.next((f) => f.type === "presence" && f.viewers.length === 0, 15_000);
  });

  it("answers 401 at once on instance 2 for a session signed out through instance 1", async () => {
    const body = registration();
    const org = await post<AuthAnswer>(one, "/api/auth/register", body);
    const other = await post<AuthAnswer>(one, "/api/auth/login", { email: body.email, password: body.password });
    const send = (base: string, method: string, route: string, token: string) =>
      fetch(`${base}${route}`, { method, headers: { authorization: `Bearer ${token}` } });
    // Used through instance 2, which now holds it in its session cache.
    expect((await send(two, "GET", "/api/auth/me", other.token)).status).toBe(200);
    expect((await send(two, "GET", "/api/tickets", other.token)).status).toBe(200);
    const list = (await (await send(one, "GET", "/api/auth/sessions", org.token)).json()) as {
      sessions: { id: string; current: boolean }[];
    };
    const target = list.sessions.find((s) => !s.current);
    expect(target).toBeDefined();
    expect((await send(one, "DELETE", `/api/auth/sessions/${target?.id}`, org.token)).status).toBe(200);
    expect((await send(two, "GET", "/api/auth/me", other.token)).status).toBe(401);
    expect((await send(two, "GET", "/api/tickets", other.token)).status).toBe(401);
    expect((await send(two, "GET", "/api/auth/me", org.token)).status).toBe(200);
  });
});
