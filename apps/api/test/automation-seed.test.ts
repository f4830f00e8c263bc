import { tmpdir } from "node:os";
import path from "node:path";
import { createRuleBody, type Rule } from "@cove/contract/automation.ts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { DEMO_LOGIN, seedDemo } from "../src/db/seed.ts";
import type { Database } from "../src/platform/db.ts";
import { bearer, embeddedTestDatabase, newAddress } from "./helpers.ts";

// The demo is seeded into an empty database only, so this file always uses its own in-memory one.
let database: Database;
let app: FastifyInstance;
let token: string;
beforeAll(async () => {
  database = await embeddedTestDatabase();
  expect(await seedDemo(database.db)).toBe(true);
  app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(tmpdir(), "cove-rules-seed") },
    publicUrl: "http://cove.test",
  });
  await app.ready();
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: DEMO_LOGIN,
    remoteAddress: newAddress(),
  });
  expect(res.statusCode, res.body).toBe(200);
  token = res.json().token;
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe("the demo organization's rules", () => {
  it("are valid rules, two running and three paused, and the refund rule runs under the demo's SLA targets", async () => {
    const list = await app.inject({ method: "GET", url: "/api/automation/rules", headers: bearer(token) });
    const rules = list.json().rules as Rule[];
    expect(rules.map((r) => [r.name, r.is_active])).toEqual([
      ["Refunds to billing", true],
      ["Escalate urgent tickets", true],
      ["Share out new tickets", false],
      ["Acknowledge new tickets", false],
      ["Close quiet pending tickets", false],
    ]);
    for (const r of rules) {
      const sent = {
        name: r.name,
        description: r.description,
        triggerConditions: r.trigger_conditions,
        actions: r.actions,
        isActive: r.is_active,
      };
      expect(createRuleBody.safeParse(sent).success, r.name).toBe(true);
    }
    const res = await app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(token),
      payload: {
        subject: "Refund for a stove",
        description: "It never lit.",
        requester_name: "Rosa Diaz",
        requester_email: "rosa@example.com",
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json().ticket;
    expect(ticket).toMatchObject({ priority: "high", tags: ["billing"], assignee_id: null, comments: [] });
    // High: first response within 4 calendar hours.
    const sla = await app.inject({ method: "GET", url: `/api/tickets/${ticket.id}/sla`, headers: bearer(token) });
    expect(sla.json().first_response).toMatchObject({
      state: "on_track",
      due_at: new Date(new Date(ticket.created_at).getTime() + 4 * 3_600_000).toISOString(),
    });
  });
});
