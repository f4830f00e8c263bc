import { tmpdir } from "node:os";
import path from "node:path";
import type { ChatSession, ChatStatsAnswer } from "@cove/contract/chat.ts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { DEMO_LOGIN, seedDemo } from "../src/db/seed.ts";
import type { Database } from "../src/platform/db.ts";
import { bearer, embeddedTestDatabase } from "./helpers.ts";

// The demo is seeded into an empty database only, so this file uses its own in-memory one.
let database: Database;
let app: FastifyInstance;
let token: string;
beforeAll(async () => {
  database = await embeddedTestDatabase();
  expect(await seedDemo(database.db)).toBe(true);
  app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(tmpdir(), "cove-chat-seed") },
    publicUrl: "http://cove.test",
  });
  await app.ready();
  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: DEMO_LOGIN });
  expect(login.statusCode, login.body).toBe(200);
  token = login.json().token as string;
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe("the demo organization's live chats", () => {
  it("has past and current sessions: one waiting for a person on top, and real figures", async () => {
    const list = (await app.inject({ method: "GET", url: "/api/chat/sessions", headers: bearer(token) })).json()
      .sessions as ChatSession[];
    expect(list).toHaveLength(4);
    expect(list[0]).toMatchObject({ waiting_for_human: true, status: "active", assigned_agent: null });
    expect(list.filter((s) => s.status === "closed")).toHaveLength(2);
    const stats = (
      await app.inject({ method: "GET", url: "/api/chat/stats", headers: bearer(token) })
    ).json() as ChatStatsAnswer;
    expect(stats).toMatchObject({ active_chats: 2, total_sessions: 4, resolved_by_ai: 1, handed_off: 3 });
    // Marco answered 3 minutes after the hand-off, Priya 2 minutes after hers.
    expect(stats.avg_response_seconds).toBeCloseTo(150, 0);
    const mia = list.find((s) => s.visitor_name === "Mia Chen");
    const messages = (
      await app.inject({ method: "GET", url: `/api/chat/sessions/${mia?.id}/messages`, headers: bearer(token) })
    ).json().messages as { sender_type: string }[];
    expect(messages.map((m) => m.sender_type)).toEqual(["ai", "visitor", "ai", "system", "agent", "visitor"]);
  });
});
