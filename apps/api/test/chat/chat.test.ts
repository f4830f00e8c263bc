import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  CHAT_HANDOFF_NOTICE,
  CHAT_MESSAGE_MAX,
  CHAT_VISITOR_MESSAGES,
  type ChatMessage,
  type ChatSession,
  type ChatStatsAnswer,
  type StartChatAnswer,
} from "@cove/contract/chat.ts";
import type { NotificationListAnswer } from "@cove/contract/notifications.ts";
import type { ServerFrame } from "@cove/contract/realtime.ts";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ticketUnansweredChats } from "../../src/modules/chat/chat-unanswered.ts";
import { hashToken, newContactToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import {
  addMember,
  client,
  type Method,
  naughtyStrings,
  newAddress,
  type Org,
  orgForFile,
  registerOrg,
  testAppForFile,
} from "../helpers.ts";
import { addArticle, SHOP_ARTICLES } from "../support/kb-fixtures.ts";
import { connectRealtime } from "../support/realtime-client.ts";

const t = testAppForFile();
const shop = orgForFile(t);
const other = orgForFile(t);
beforeAll(async () => {
  for (const a of SHOP_ARTICLES) await addArticle(t, shop.user.organizationId, a);
});

const call = client(() => t.app, { newAddressEachCall: true });

async function startChat(org: Org, body: object = { name: "Lee Park", email: "lee@example.com" }) {
  const res = await call(null, "POST", `/api/public/${org.user.organizationSlug}/chat/sessions`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as StartChatAnswer;
}

async function visitorSays(org: Org, chat: StartChatAnswer, message: string): Promise<ChatMessage[]> {
  const res = await call(
    chat.token,
    "POST",
    `/api/public/${org.user.organizationSlug}/chat/sessions/${chat.session.id}/messages`,
    { message },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().messages as ChatMessage[];
}

async function sessions(token: string): Promise<ChatSession[]> {
  const res = await call(token, "GET", "/api/chat/sessions");
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions as ChatSession[];
}

async function messagesOf(token: string, id: string): Promise<ChatMessage[]> {
  const res = await call(token, "GET", `/api/chat/sessions/${id}/messages`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as ChatMessage[];
}

const agentSays = (token: string, id: string, message: string) =>
  call(token, "POST", `/api/chat/sessions/${id}/messages`, { message });

async function stats(token: string): Promise<ChatStatsAnswer> {
  const res = await call(token, "GET", "/api/chat/stats");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ChatStatsAnswer;
}

describe("a visitor's chat, answered by the assistant first", () => {
  it("starts with the assistant's greeting and a visitor token; the agents see the session with its name and email", async () => {
    const chat = await startChat(shop);
    expect(chat.token.startsWith("ct.")).toBe(true);
    expect(chat.session).toMatchObject({ visitor_name: "Lee Park", status: "active", waiting_for_human: false });
    expect(chat.messages).toHaveLength(1);
    expect(chat.messages[0]?.sender_type).toBe("ai");
    const listed = (await sessions(shop.token)).find((s) => s.id === chat.session.id);
    expect(listed).toMatchObject({ visitor_name: "Lee Park", visitor_email: "lee@example.com", status: "active" });
  });

  it("greets a new organization's visitors with the greeting its AI Assistant page shows, and then with the one saved", async () => {
    const org = await registerOrg(t.app);
    const shown = (await call(org.token, "GET", "/api/ai/settings")).json().settings.greeting as string;
    expect((await startChat(org)).messages[0]?.message).toBe(shown);
    // Saving another setting keeps the greeting the visitors already got.
    const saved = await call(org.token, "PUT", "/api/ai/settings", { tone: "concise" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await startChat(org)).messages[0]?.message).toBe(shown);
    await call(org.token, "PUT", "/api/ai/settings", { greeting: "Welcome to the shop!" });
    expect((await startChat(org)).messages[0]?.message).toBe("Welcome to the shop!");
  });

  it("answers a question the knowledge base covers, with the help-center article as its source", async () => {
    const chat = await startChat(shop);
    const added = await visitorSays(shop, chat, "How long does a refund take to reach my card?");
    expect(added.map((m) => m.sender_type)).toEqual(["visitor", "ai"]);
    const ai = added[1];
    expect(ai?.message).toContain("Refunds reach your original payment method within 5 business days");
    expect(ai?.sources[0]?.url).toMatch(new RegExp(`^/help/${shop.user.organizationSlug}/articles/`));
    const session = (await sessions(shop.token)).find((s) => s.id === chat.session.id);
    expect(session?.waiting_for_human).toBe(false);
    expect(session?.handed_off).toBe(false);
  });

  it("hands off when the visitor asks for a person: waiting, the visitor told, every member notified", async () => {
    const agent = await addMember(t.database, shop.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const chat = await startChat(shop, { name: "Sam" });
    const added = await visitorSays(shop, chat, "I want to talk to a human please");
    expect(added.map((m) => m.sender_type)).toEqual(["visitor", "ai", "system"]);
    expect(added[2]?.message).toBe(CHAT_HANDOFF_NOTICE);

    const list = await sessions(shop.token);
    const mine = list.find((s) => s.id === chat.session.id);
    expect(mine).toMatchObject({ waiting_for_human: true, handed_off: true });
    expect(mine?.waiting_since).not.toBeNull();
    // Waiting sessions come first.
    expect(list[0]?.waiting_for_human).toBe(true);

    for (const token of [shop.token, agent.token]) {
      const bell = (await call(token, "GET", "/api/notifications")).json() as NotificationListAnswer;
      const waiting = bell.notifications.find((n) => n.link === `/chat?session=${chat.session.id}`);
      expect(waiting).toMatchObject({ type: "chat_waiting", actor_name: "Sam" });
    }
    const visitorView = await call(
      chat.token,
      "GET",
      `/api/public/${shop.user.organizationSlug}/chat/sessions/${chat.session.id}`,
    );
    expect(visitorView.json().session.waiting_for_human).toBe(true);
  });

  it("hands off when the assistant has no confident answer", async () => {
    const chat = await startChat(shop);
    const added = await visitorSays(shop, chat, "Does your kayak warranty cover a cracked hull in winter storage?");
    expect(added.map((m) => m.sender_type)).toEqual(["visitor", "ai", "system"]);
    expect((await sessions(shop.token)).find((s) => s.id === chat.session.id)?.waiting_for_human).toBe(true);
  });

  it("stays silent once handed off and once a person has replied; the reply ends the wait and assigns the session", async () => {
    const chat = await startChat(shop);
    await visitorSays(shop, chat, "Can I speak to a real person?");
    // While it waits for a person, the assistant does not answer again.
    expect((await visitorSays(shop, chat, "How long does a refund take?")).map((m) => m.sender_type)).toEqual([
      "visitor",
    ]);
    const reply = await agentSays(shop.token, chat.session.id, "  Hi, Ada here. Let me check.  ");
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().message).toMatchObject({ sender_type: "agent", message: "Hi, Ada here. Let me check." });
    const session = (await sessions(shop.token)).find((s) => s.id === chat.session.id);
    expect(session?.waiting_for_human).toBe(false);
    expect(session?.assigned_agent?.id).toBe(shop.user.id);
    // After a person replied, a question the assistant could answer still goes unanswered by it.
    expect((await visitorSays(shop, chat, "How long does a refund take?")).map((m) => m.sender_type)).toEqual([
      "visitor",
    ]);
    const seen = await call(
      chat.token,
      "GET",
      `/api/public/${shop.user.organizationSlug}/chat/sessions/${chat.session.id}`,
    );
    const types = (seen.json().messages as ChatMessage[]).map((m) => m.sender_type);
    expect(types).toEqual(["ai", "visitor", "ai", "system", "visitor", "agent", "visitor"]);
    const agentLine = (seen.json().messages as ChatMessage[]).find((m) => m.sender_type === "agent");
    expect(agentLine?.sender_name).toBe("Ada");
  });

  it("a visitor who asks for a person after a person replied gets no second hand-off", async () => {
    const chat = await startChat(shop);
    await agentSays(shop.token, chat.session.id, "Hello!");
    const added = await visitorSays(shop, chat, "I want a human");
    expect(added.map((m) => m.sender_type)).toEqual(["visitor"]);
  });
});

describe("the agent's calls (docs/product.md, API calls)", () => {
  it("closes a session with the spec's text; a closed one takes no more messages from either side", async () => {
    const chat = await startChat(shop);
    const closed = await call(shop.token, "PUT", `/api/chat/sessions/${chat.session.id}`, { status: "closed" });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().message).toBe("Chat session closed successfully.");
    expect(closed.json().session).toMatchObject({ status: "closed" });
    expect(closed.json().session.ended_at).not.toBeNull();
    expect((await agentSays(shop.token, chat.session.id, "hello")).statusCode).toBe(409);
    const late = await call(
      chat.token,
      "POST",
      `/api/public/${shop.user.organizationSlug}/chat/sessions/${chat.session.id}/messages`,
      { message: "still there?" },
    );
    expect(late.statusCode).toBe(409);
    expect(
      (await call(shop.token, "PUT", `/api/chat/sessions/${chat.session.id}`, { status: "closed" })).statusCode,
    ).toBe(409);
  });

  it("take assigns the session to the member who took it", async () => {
    const agent = await addMember(t.database, shop.user.organizationId, { firstName: "Marco", lastName: "Alvarez" });
    const chat = await startChat(shop);
    const taken = await call(agent.token, "POST", `/api/chat/sessions/${chat.session.id}/take`);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().session.assigned_agent).toEqual({ id: agent.id, name: "Marco Alvarez" });
  });

  it("counts the four figures: active, closed today, the real average time to a person's first reply, total", async () => {
    const org = await registerOrg(t.app);
    expect(await stats(org.token)).toEqual({
      active_chats: 0,
      closed_today: 0,
      avg_response_seconds: null,
      total_sessions: 0,
      resolved_by_ai: 0,
      handed_off: 0,
    });
    const a = await startChat(org);
    const b = await startChat(org);
    await startChat(org);
    await agentSays(org.token, a.session.id, "Hi!");
    // Make a's first reply come 90 s after it started, and b's 30 s after its hand-off.
    await queryRows(
      t.database.db,
      sql`update chat_sessions set started_at = first_human_reply_at - interval '90 seconds' where id = ${a.session.id}`,
    );
    await visitorSays(org, b, "I want to talk to a person");
    await agentSays(org.token, b.session.id, "Here!");
    await queryRows(
      t.database.db,
      sql`update chat_sessions set handed_off_at = first_human_reply_at - interval '30 seconds' where id = ${b.session.id}`,
    );
    await call(org.token, "PUT", `/api/chat/sessions/${a.session.id}`, { status: "closed" });
    const figures = await stats(org.token);
    expect(figures).toMatchObject({ active_chats: 2, closed_today: 1, total_sessions: 3, handed_off: 1 });
    expect(figures.avg_response_seconds).toBeCloseTo(60, 0);
  });

  it("a session the assistant answered alone counts as resolved by it when closed", async () => {
    const org = await registerOrg(t.app);
    await addArticle(t, org.user.organizationId, SHOP_ARTICLES[0] as (typeof SHOP_ARTICLES)[number]);
    const chat = await startChat(org);
    const added = await visitorSays(org, chat, SHOP_ARTICLES[0]?.questions?.[0] ?? SHOP_ARTICLES[0]?.title ?? "");
    expect(added.map((m) => m.sender_type)).toEqual(["visitor", "ai"]);
    await call(org.token, "PUT", `/api/chat/sessions/${chat.session.id}`, { status: "closed" });
    expect(await stats(org.token)).toMatchObject({ resolved_by_ai: 1, handed_off: 0 });
  });

  it("asks How did we do? once a chat ends: the answers of chats the assistant resolved are the AI's satisfaction", async () => {
    const org = await registerOrg(t.app);
    await addArticle(t, org.user.organizationId, SHOP_ARTICLES[0] as (typeof SHOP_ARTICLES)[number]);
    const rate = (chat: StartChatAnswer, rating: unknown, token: string | null = chat.token) =>
      call(token, "PUT", `/api/public/${org.user.organizationSlug}/chat/sessions/${chat.session.id}/rating`, {
        rating,
      });
    // Answered by the assistant alone, then closed: a good answer counts for the AI.
    const byAi = await startChat(org);
    await visitorSays(org, byAi, SHOP_ARTICLES[0]?.questions?.[0] ?? SHOP_ARTICLES[0]?.title ?? "");
    const early = await rate(byAi, "good");
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe("You can rate the chat once it has ended.");
    await call(org.token, "PUT", `/api/chat/sessions/${byAi.session.id}`, { status: "closed" });
    const rated = await rate(byAi, "good");
    expect(rated.statusCode, rated.body).toBe(200);
    expect(rated.json().session.rating).toBe("good");
    // Handed to a person: a bad answer counts for the people.
    const byPeople = await startChat(org);
    await visitorSays(org, byPeople, "I want to talk to a person");
    await agentSays(org.token, byPeople.session.id, "Hello, I can help.");
    await call(org.token, "PUT", `/api/chat/sessions/${byPeople.session.id}`, { status: "closed" });
    expect((await rate(byPeople, "bad")).statusCode).toBe(200);
    // Only the visitor of the session, with a valid answer.
    expect((await rate(byPeople, "meh")).statusCode).toBe(400);
    expect((await rate(byPeople, "good", byAi.token)).statusCode).toBe(404);
    expect((await rate(byPeople, "good", org.token)).statusCode).toBe(403);
    const csat = await call(org.token, "GET", "/api/csat/stats");
    expect(csat.statusCode, csat.body).toBe(200);
    expect(csat.json()).toMatchObject({
      surveys_sent: 2,
      ai: { good: 1, bad: 0, score: 100, available: true },
      people: { good: 0, bad: 1 },
    });
    // Another organization's figures hold none of it.
    expect((await call(other.token, "GET", "/api/csat/stats")).json().ai).toMatchObject({ good: 0, bad: 0 });
  });

  it("lists a contact's live chats on the contact's page, for its own organization only", async () => {
    const chat = await startChat(shop, { name: "Kim Ode" });
    await visitorSays(shop, chat, "Hello there");
    const [row] = await queryRows<{ contact_id: string }>(
      t.database.db,
      sql`select contact_id from chat_sessions where id = ${chat.session.id}`,
    );
    const url = `/api/contacts/${row?.contact_id}`;
    const page = await call(shop.token, "GET", url);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().chats).toEqual([
      expect.objectContaining({
        id: chat.session.id,
        status: "active",
        // The assistant had no answer and handed off: its notice is the last message.
        last_message: CHAT_HANDOFF_NOTICE,
        resolved_by_ai: false,
      }),
    ]);
    expect((await call(other.token, "GET", url)).statusCode).toBe(404);
  });

  it("turns a conversation into a ticket with its transcript; the visitor is told, the chat ends", async () => {
    const chat = await startChat(shop, { name: "Noor Haddad", email: "noor@example.com" });
    await visitorSays(shop, chat, "I need a person about my invoice <b>#42</b>");
    await agentSays(shop.token, chat.session.id, "Sure, let me check.");
    const res = await call(shop.token, "POST", `/api/chat/sessions/${chat.session.id}/ticket`);
    expect(res.statusCode, res.body).toBe(201);
    const { ticket_id, ticket_number, session } = res.json() as {
      ticket_id: string;
      ticket_number: number;
      session: ChatSession;
    };
    expect(session).toMatchObject({ status: "transferred", ticket_id, waiting_for_human: false });
    const ticket = (await call(shop.token, "GET", `/api/tickets/${ticket_id}`)).json().ticket;
    expect(ticket).toMatchObject({
      ticket_number,
      subject: "Live chat with Noor Haddad",
      requester_email: "noor@example.com",
      source: "chat",
    });
    expect(ticket.description).toContain("Noor Haddad: I need a person about my invoice <b>#42</b>");
    expect(ticket.description).toContain("Ada: Sure, let me check.");
    const seen = await call(
      chat.token,
      "GET",
      `/api/public/${shop.user.organizationSlug}/chat/sessions/${chat.session.id}`,
    );
    expect(seen.json().session.status).toBe("transferred");
    expect((seen.json().messages as ChatMessage[]).at(-1)?.message).toBe(
      `This conversation is now ticket #${ticket_number}. We will reply to noor@example.com by email.`,
    );
    // Once only; and a chat without an email cannot become one.
    expect((await call(shop.token, "POST", `/api/chat/sessions/${chat.session.id}/ticket`)).statusCode).toBe(409);
    const anonymous = await startChat(shop, {});
    const refused = await call(shop.token, "POST", `/api/chat/sessions/${anonymous.session.id}/ticket`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/no email/);
    expect((await call(other.token, "POST", `/api/chat/sessions/${anonymous.session.id}/ticket`)).statusCode).toBe(404);
  });

  it("a chat nobody answered within minutes becomes a ticket answered by email, if the visitor left one", async () => {
    const org = await registerOrg(t.app);
    const waiting = await startChat(org, { name: "Ines", email: "ines@example.com" });
    const noEmail = await startChat(org, { name: "Anon" });
    const recent = await startChat(org, { name: "Just now", email: "now@example.com" });
    const answered = await startChat(org, { name: "Answered", email: "answered@example.com" });
    for (const chat of [waiting, noEmail, recent, answered]) await visitorSays(org, chat, "I want a person");
    await agentSays(org.token, answered.session.id, "Hi!");
    await queryRows(
      t.database.db,
      sql`update chat_sessions set waiting_since = now() - interval '6 minutes'
          where id in (${waiting.session.id}, ${noEmail.session.id}, ${answered.session.id})`,
    );
    // (The app's own minute-by-minute job may get there first; either way the outcome is the same.)
    expect(await ticketUnansweredChats(t.database.db)).toBeLessThanOrEqual(1);
    const list = await sessions(org.token);
    const statusOf = (id: string) => list.find((s) => s.id === id)?.status;
    expect(statusOf(waiting.session.id)).toBe("transferred");
    expect(statusOf(noEmail.session.id)).toBe("active");
    expect(statusOf(recent.session.id)).toBe("active");
    expect(statusOf(answered.session.id)).toBe("active");
    const seen = await call(
      waiting.token,
      "GET",
      `/api/public/${org.user.organizationSlug}/chat/sessions/${waiting.session.id}`,
    );
    expect((seen.json().messages as ChatMessage[]).at(-1)?.message).toMatch(
      /^Nobody from our team is free right now\. This conversation is now ticket #\d+\. We will reply to ines@example\.com by email\.$/,
    );
    const tickets = (await call(org.token, "GET", "/api/tickets?page=1")).json().tickets as {
      requester_email: string;
    }[];
    expect(tickets.map((x) => x.requester_email)).toEqual(["ines@example.com"]);
  });

  it("answers bad input with 400 and clear messages", async () => {
    const chat = await startChat(shop);
    const url = `/api/chat/sessions/${chat.session.id}`;
    for (const body of [
      {},
      { message: "" },
      { message: "   " },
      { message: 5 },
      { message: "x".repeat(CHAT_MESSAGE_MAX + 1) },
    ]) {
      const res = await call(shop.token, "POST", `${url}/messages`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(/Message/);
    }
    for (const body of [{}, { status: "active" }, { status: "transferred" }, { status: 1 }]) {
      expect((await call(shop.token, "PUT", url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(shop.token, "GET", "/api/chat/sessions/not-a-uuid/messages")).statusCode).toBe(404);
    expect((await call(null, "GET", "/api/chat/sessions")).statusCode).toBe(401);
  });
});

describe("tenancy and visitor isolation", () => {
  it("another organization's agent gets 404 on every call about a session and sees none of them", async () => {
    const chat = await startChat(shop);
    await visitorSays(shop, chat, "Hello there");
    const id = chat.session.id;
    const attempts: [Method, string, object?][] = [
      ["GET", `/api/chat/sessions/${id}`],
      ["GET", `/api/chat/sessions/${id}/messages`],
      ["POST", `/api/chat/sessions/${id}/messages`, { message: "I should not be here" }],
      ["PUT", `/api/chat/sessions/${id}`, { status: "closed" }],
      ["POST", `/api/chat/sessions/${id}/take`],
      ["POST", `/api/chat/sessions/${id}/ticket`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(other.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await sessions(other.token)).map((s) => s.id)).not.toContain(id);
    expect((await stats(other.token)).total_sessions).toBe(0);
    // Nothing changed.
    const still = (await sessions(shop.token)).find((s) => s.id === id);
    expect(still?.status).toBe("active");
    expect((await messagesOf(shop.token, id)).map((m) => m.message)).not.toContain("I should not be here");
  });

  it("a visitor's token reaches only its own session, and only in its own organization", async () => {
    const a = await startChat(shop, { name: "Visitor A" });
    const b = await startChat(shop, { name: "Visitor B" });
    const slug = shop.user.organizationSlug;
    expect((await call(a.token, "GET", `/api/public/${slug}/chat/sessions/${b.session.id}`)).statusCode).toBe(404);
    expect(
      (await call(a.token, "POST", `/api/public/${slug}/chat/sessions/${b.session.id}/messages`, { message: "hi" }))
        .statusCode,
    ).toBe(404);
    expect((await call(a.token, "GET", `/api/public/${slug}/chat/sessions/${a.session.id}`)).statusCode).toBe(200);
    // Org Y's visitor at org X's address, and at its own address with X's session: not found either way.
    const y = await startChat(other);
    expect((await call(y.token, "GET", `/api/public/${slug}/chat/sessions/${y.session.id}`)).statusCode).toBe(404);
    expect(
      (await call(y.token, "GET", `/api/public/${other.user.organizationSlug}/chat/sessions/${a.session.id}`))
        .statusCode,
    ).toBe(404);
    // A visitor token opens no staff route, and a staff token no visitor route.
    expect((await call(a.token, "GET", "/api/chat/sessions")).statusCode).toBe(403);
    expect((await call(shop.token, "GET", `/api/public/${slug}/chat/sessions/${a.session.id}`)).statusCode).toBe(403);
    expect((await call(null, "GET", `/api/public/${slug}/chat/sessions/${a.session.id}`)).statusCode).toBe(401);
  });

  it("the visitor's email is not used to become an existing contact, and its token opens no portal route", async () => {
    const email = `known-${Date.now()}@example.com`;
    await call(shop.token, "POST", "/api/tickets", {
      subject: "Private matter",
      description: "Only the real customer may read this",
      requester_name: "Real Customer",
      requester_email: email,
    });
    const chat = await startChat(shop, { name: "Impostor", email });
    // A visitor's token is not a portal sign-in: the portal's routes refuse it.
    const portal = await call(chat.token, "GET", "/api/portal/tickets");
    expect(portal.statusCode, portal.body).toBe(403);
    expect(portal.body).not.toContain("Private matter");
    const opened = await call(chat.token, "POST", "/api/portal/tickets", { subject: "Spam", description: "Spam" });
    expect(opened.statusCode).toBe(403);
    const listed = (await sessions(shop.token)).find((s) => s.id === chat.session.id);
    expect(listed?.visitor_email).toBe(email);
  });

  it("the database itself confines a visitor's transaction to its own sessions (row-level security)", async () => {
    const a = await startChat(shop);
    const b = await startChat(shop);
    const [contact] = await queryRows<{ contact_id: string }>(
      t.database.db,
      sql`select contact_id from chat_sessions where id = ${a.session.id}`,
    );
    const seen = await t.database.db.transaction(async (tx) => {
      await queryRows(
        tx,
        sql`select set_config('app.org_id', ${shop.user.organizationId}, true),
                   set_config('app.contact_id', ${contact?.contact_id ?? ""}, true), set_config('role', 'cove_contact', true)`,
      );
      return queryRows<{ id: string }>(tx, sql`select id from chat_sessions`);
    });
    expect(seen.map((r) => r.id)).toEqual([a.session.id]);
    expect(seen.map((r) => r.id)).not.toContain(b.session.id);
  });

  it("an unknown organization's address is not found", async () => {
    const res = await call(null, "POST", "/api/public/no-such-org-anywhere/chat/sessions", {});
    expect(res.statusCode).toBe(404);
  });
});

describe("visitor limits and bad input", () => {
  it("paces a visitor who sends too fast (429), with a clear message", async () => {
    const chat = await startChat(other);
    const url = `/api/public/${other.user.organizationSlug}/chat/sessions/${chat.session.id}/messages`;
    // The session waits for a person from the first message on, so the assistant does not slow the loop down.
    await visitorSays(other, chat, "I want a human");
    for (let i = 1; i < CHAT_VISITOR_MESSAGES; i++) await visitorSays(other, chat, `message ${i}`);
    const res = await call(chat.token, "POST", url, { message: "one too many" });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/too quickly/);
  });

  it("limits how many chats one address starts", async () => {
    const address = newAddress();
    const start = () =>
      t.app.inject({
        method: "POST",
        url: `/api/public/${other.user.organizationSlug}/chat/sessions`,
        payload: {},
        remoteAddress: address,
      });
    let last = 0;
    for (let i = 0; i < 21; i++) last = (await start()).statusCode;
    expect(last).toBe(429);
  });

  it("refuses a bad name, email or message with 400", async () => {
    const slug = shop.user.organizationSlug;
    for (const body of [{ name: 5 }, { email: "not an email" }, { name: "x".repeat(121) }, { name: "a\u0000b" }]) {
      const res = await call(null, "POST", `/api/public/${slug}/chat/sessions`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const chat = await startChat(shop);
    for (const body of [{}, { message: " " }, { message: "y".repeat(CHAT_MESSAGE_MAX + 1) }]) {
      const res = await call(chat.token, "POST", `/api/public/${slug}/chat/sessions/${chat.session.id}/messages`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("stores naughty strings and XSS payloads as messages and names, and returns them as the same text", async () => {
    const strings = [
      '<script>alert("x")</script>',
      '<img src=x onerror="alert(1)">',
      "Robert'); DROP TABLE chat_sessions;--",
      ...naughtyStrings()
        .filter((s) => s.trim() !== "" && !s.includes("\u0000"))
        .slice(0, 40),
    ];
    for (const text of strings) {
      const name = text.trim().slice(0, 120);
      const chat = await startChat(other, { name });
      expect(chat.session.visitor_name).toBe(name || "Visitor");
      await call(other.token, "POST", `/api/chat/sessions/${chat.session.id}/messages`, { message: text });
      const stored = await messagesOf(other.token, chat.session.id);
      expect(stored.at(-1)?.message).toBe(text.trim());
    }
    const xss = await startChat(other, { name: "<b>x</b>" });
    const listed = (await sessions(other.token)).find((s) => s.id === xss.session.id);
    expect(listed?.visitor_name).toBe("<b>x</b>");
  });
});

describe("the widget", () => {
  it("serves /widget.js as a small script any website may load (<= 25 KB gzip)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "accept-encoding": "gzip" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(res.rawPayload.byteLength).toBeLessThanOrEqual(25 * 1024);
    const plain = await t.app.inject({ method: "GET", url: "/widget.js" });
    expect(plain.body).toContain("CoveChat");
    expect(plain.body).toContain("attachShadow");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(gunzipSync(res.rawPayload).toString()).toBe(plain.body);
  });

  it("sends /widget.js as brotli where taken, kept a while by browsers and revalidated for a 304", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/widget.js" });
    const br = await t.app.inject({
      method: "GET",
      url: "/widget.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // Its address cannot change with each build, so it is never immutable; a browser keeps it ten minutes.
    expect(br.headers["cache-control"]).toBe("public, max-age=600, stale-while-revalidate=86400");
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.byteLength).toBe(0);
    const changed = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "if-none-match": '"old"' } });
    expect(changed.statusCode).toBe(200);
  });

  it("answers another origin's preflight and calls, and gives the widget its look", async () => {
    const slug = shop.user.organizationSlug;
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: `/api/public/${slug}/chat/sessions`,
      headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(String(preflight.headers["access-control-allow-headers"])).toContain("authorization");
    // The rating is a PUT: a browser asks first.
    expect(String(preflight.headers["access-control-allow-methods"]).split(/,\s*/)).toEqual(["GET", "POST", "PUT"]);
    // Only the widget's paths: another origin's preflight for a staff route is not answered.
    const staff = await t.app.inject({
      method: "OPTIONS",
      url: "/api/tickets",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
    });
    expect(staff.statusCode).toBe(404);
    expect(staff.headers["access-control-allow-origin"]).toBeUndefined();
    const look = await call(null, "GET", `/api/public/${slug}/chat/widget`);
    expect(look.statusCode).toBe(200);
    expect(look.headers["access-control-allow-origin"]).toBe("*");
    const tickets = await call(shop.token, "GET", "/api/tickets");
    expect(tickets.statusCode).toBe(200);
    expect(tickets.headers["access-control-allow-origin"]).toBeUndefined();
    expect(look.json()).toEqual({
      name: expect.any(String),
      brand_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      logo_url: null,
    });
    expect((await call(null, "GET", "/api/public/nobody-here/chat/widget")).statusCode).toBe(404);
  });

  it("a customer signed in to the portal chats as itself, with its own token", async () => {
    const email = `portal-${Date.now()}@example.com`;
    const [contact] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into contacts (organization_id, name, email) values (${shop.user.organizationId}, 'Grace Hopper', ${email})
          returning id`,
    );
    const token = newContactToken();
    await queryRows(
      t.database.db,
      sql`insert into contact_sessions (organization_id, contact_id, kind, token_hash, expires_at)
          values (${shop.user.organizationId}, ${contact?.id}, 'portal', ${hashToken(token)}, now() + interval '1 day')`,
    );
    const res = await call(token, "POST", `/api/public/${shop.user.organizationSlug}/chat/sessions`, {});
    expect(res.statusCode, res.body).toBe(201);
    const chat = res.json() as StartChatAnswer;
    expect(chat.token).toBe(token);
    const listed = (await sessions(shop.token)).find((s) => s.id === chat.session.id);
    expect(listed).toMatchObject({ visitor_name: "Grace Hopper", visitor_email: email });
    // Its token at another organization's address, and a made-up token, are refused.
    expect((await call(token, "POST", `/api/public/${other.user.organizationSlug}/chat/sessions`, {})).statusCode).toBe(
      404,
    );
    expect(
      (await call("ct.nope", "POST", `/api/public/${shop.user.organizationSlug}/chat/sessions`, {})).statusCode,
    ).toBe(401);
  });
});

describe("live updates", () => {
  let listening: Promise<string> | null = null;
  const serverUrl = () => {
    listening ??= t.app.listen({ port: 0, host: "127.0.0.1" });
    return listening;
  };

  it("the team sees a new session and messages at once; the visitor follows only its own session", async () => {
    const base = await serverUrl();
    const staff = await connectRealtime(base);
    await staff.join(shop.token, ["chat"]);
    const chat = await startChat(shop);
    const isChat = (type: string) => (f: ServerFrame) =>
      f.type === "event" &&
      f.event.type === type &&
      (f.event.data as { session_id?: string }).session_id === chat.session.id;
    await staff.next(isChat("chat.session_started"));

    const other1 = await startChat(shop);
    const visitor = await connectRealtime(base);
    await visitor.join(chat.token, [`chat_session:${chat.session.id}`, `chat_session:${other1.session.id}`, "chat"]);
    expect(visitor.frames.filter((f) => f.type === "error")).toHaveLength(2);

    await visitorSays(shop, chat, "I want a human");
    await staff.next(isChat("chat.handed_off"));
    await agentSays(shop.token, chat.session.id, "On it");
    const reply = await visitor.next(
      (f) => f.type === "event" && f.event.type === "chat.message_added" && f.event.data.sender_type === "agent",
    );
    expect(reply).toMatchObject({ topic: `chat_session:${chat.session.id}` });
    staff.close();
    visitor.close();
  });

  it("typing shows both ways: the visitor by name to the team, the agent by first name and no id to the visitor", async () => {
    const base = await serverUrl();
    const chat = await startChat(shop, { name: "Tess Typer" });
    const topic = `chat_session:${chat.session.id}`;
    const staff = await connectRealtime(base);
    await staff.join(shop.token, [topic]);
    const visitor = await connectRealtime(base);
    await visitor.join(chat.token, [topic]);

    visitor.send({ type: "typing", topic });
    await staff.next(
      (f) => f.type === "presence" && f.topic === topic && f.viewers.some((v) => v.name === "Tess Typer" && v.typing),
    );
    staff.send({ type: "typing", topic });
    const seen = await visitor.next(
      (f) => f.type === "presence" && f.topic === topic && f.viewers.some((v) => v.typing),
    );
    if (seen.type !== "presence") throw new Error("not a presence frame");
    expect(seen.viewers).toEqual([
      { user_id: "00000000-0000-0000-0000-000000000000", name: "Ada", avatar_url: null, typing: true },
    ]);
    expect(JSON.stringify(visitor.frames)).not.toContain(shop.user.id);
    // A visitor's typing on a ticket it does not follow (or any other topic) is refused.
    visitor.send({ type: "typing", topic: "chat" });
    await visitor.next((f) => f.type === "error" && f.topic === "chat");
    staff.close();
    visitor.close();
  });
});
