import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { buildApp } from "../../src/app.ts";
import { DEMO_LOGIN, seedDemo } from "../../src/db/seed.ts";
import type { Database } from "../../src/platform/db.ts";
import { embeddedTestDatabase, newAddress } from "../helpers.ts";

export interface DemoApp {
  app: FastifyInstance;
  database: Database;
  /** The demo admin's session. */
  token: string;
}

/**
 * For a file about what the demo seeds: its own app over a fresh in-memory database with the demo seeded (the demo is
 * seeded into an empty database only), signed in as the demo's admin; `outbox` names the folder its mail goes to.
 */
export function demoAppForFile(outbox: string): DemoApp {
  const demo = {} as DemoApp;
  beforeAll(async () => {
    demo.database = await embeddedTestDatabase();
    expect(await seedDemo(demo.database.db)).toBe(true);
    demo.app = await buildApp({
      database: demo.database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(tmpdir(), outbox) },
      publicUrl: "http://cove.test",
    });
    await demo.app.ready();
    const login = await demo.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: DEMO_LOGIN,
      remoteAddress: newAddress(),
    });
    expect(login.statusCode, login.body).toBe(200);
    demo.token = login.json().token as string;
  });
  afterAll(async () => {
    await demo.app?.close();
    await demo.database?.close();
  });
  return demo;
}
