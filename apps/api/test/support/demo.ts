import { tmpdir } from "node:os";
import path from "node:path";
import { DEMO_ORG_SLUG } from "@cove/contract/constants.ts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { buildApp } from "../../src/app.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { DEMO_LOGIN, seedDemo } from "../../src/db/seed.ts";
import type { Database } from "../../src/platform/db.ts";
import { addMember, embeddedTestDatabase, newAddress } from "../helpers.ts";

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

/**
 * The demo organization in a test database that other files share, made as the seed makes it: the seed flags one
 * organization (is_demo), and marking another would give the tests that use the demo two of them. Whichever test made
 * the row first, it is marked the same way. With an admin of it.
 */
export async function demoOrganizationWithAdmin(database: Database) {
  await database.db
    .insert(organizations)
    .values({ name: "Acme Outdoor Co.", slug: DEMO_ORG_SLUG, plan: "growth", subscriptionStatus: "trialing" })
    .onConflictDoNothing();
  await database.db.update(organizations).set({ isDemo: true }).where(eq(organizations.slug, DEMO_ORG_SLUG));
  const [demo] = await database.db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.slug, DEMO_ORG_SLUG));
  if (!demo) throw new Error("no demo organization");
  return { ...demo, admin: await addMember(database, demo.id, { role: "admin" }) };
}
