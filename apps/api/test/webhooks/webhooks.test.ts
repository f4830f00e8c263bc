import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createTicketBody } from "@cove/contract/tickets.ts";
import type { Webhook, WebhookDelivery, WebhookWithSecretAnswer } from "@cove/contract/webhooks.ts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTicket } from "../../src/modules/tickets/tickets.service.ts";
import { purgeDeliveries } from "../../src/modules/webhooks/webhooks.worker.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withSystem, withTenant } from "../../src/platform/tenancy.ts";
import {
  addComment,
  addMember,
  client,
  createTestApp,
  createTicket,
  registerOrg,
  type TestApp,
  ticketFields,
} from "../helpers.ts";
import { type Received, type Receiver, startReceiver } from "../support/receiver.ts";

/**
 * Webhooks against a real HTTP receiver on 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE_HOSTS on for this app): signatures checked
 * by the receiver code of docs/webhooks.md itself, retries, order per ticket, rollbacks, turning an endpoint off,
 * redelivery and the test event; tenancy and roles of every route.
 */

let t: TestApp;
let receiver: Receiver;
/** Per path: how the receiver answers (default 200). */
const behaviour = new Map<string, (n: number, res: ServerResponse) => number | "hang">();
const seen = new Map<string, number>();
let verify: (raw: string, header: string, secret: string, tolerance?: number) => boolean;

beforeAll(async () => {
  receiver = await startReceiver((req, _n, res) => {
    const n = (seen.get(req.path) ?? 0) + 1;
    seen.set(req.path, n);
    return behaviour.get(req.path)?.(n, res) ?? 200;
  });
  t = await createTestApp({
    webhooks: {
      allowPrivateHosts: true,
      retrySchedule: [0.2, 0.4],
      pollMs: 50,
      timeoutMs: 1500,
      // A name no DNS knows: the connection goes to the address this resolver answered.
      resolve: async (host) => (host === "receiver.test" ? [{ address: "127.0.0.1", family: 4 }] : []),
    },
  });
  // The receiver of the docs, as a reader would paste it: the js block of docs/webhooks.md.
  const docs = readFileSync(path.resolve(import.meta.dirname, "../../../../docs/webhooks.md"), "utf8");
  const code = /```js\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!code) throw new Error("docs/webhooks.md has no js block");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "cove-docs-")), "verify.mjs");
  writeFileSync(file, code);
  verify = (await import(pathToFileURL(file).href)).verifyCoveSignature;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const call = client(() => t.app, { newAddressEachCall: true });
type Org = Awaited<ReturnType<typeof registerOrg>>;
let paths = 0;

async function addWebhook(org: Org, events: string[], extra: Record<string, unknown> = {}) {
  const hookPath = `/hook-${++paths}`;
  const res = await call(org, "POST", "/api/webhooks", { url: `${receiver.url}${hookPath}`, events, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json() as WebhookWithSecretAnswer), path: hookPath };
}

const at = (hookPath: string) => (all: Received[]) => all.filter((r) => r.path === hookPath);
type Obj = Record<string, unknown>;
const json = (r: Received) =>
  JSON.parse(r.body) as { id: string; type: string; data: { ticket: Obj; comment?: Obj; changes?: Obj } };

async function deliveries(org: Org, id: string): Promise<WebhookDelivery[]> {
  const res = await call(org, "GET", `/api/webhooks/${id}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { deliveries: WebhookDelivery[] }).deliveries;
}

async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = await check();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition never held");
}

describe("webhooks", () => {
  it("answers the secret once, lists and changes endpoints, and signs deliveries the docs' receiver accepts", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created", "comment.added"]);
    expect(hook.secret).toMatch(/^whsec_/);
    const list = await call(org, "GET", "/api/webhooks");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(hook.secret);
    expect((list.json() as { webhooks: Webhook[] }).webhooks.map((w) => w.id)).toEqual([hook.webhook.id]);
    // The secret is stored sealed, never in clear.
    const [stored] = await queryRows<{ secret_sealed: string }>(
      t.database.db,
      sql`select secret_sealed from webhooks where id = ${hook.webhook.id}`,
    );
    expect(stored?.secret_sealed).not.toContain(hook.secret);

    const ticket = await createTicket(t.app, org, { subject: "Lamp broke" });
    const [got] = await receiver.until((all) => {
      const mine = at(hook.path)(all);
      return mine.length >= 1 && mine;
    });
    if (!got) throw new Error("nothing received");
    const body = json(got);
    expect(body.type).toBe("ticket.created");
    expect(body.id).toMatch(/^evt_\d+$/);
    expect(body).toMatchObject({ organization: { slug: org.user.organizationSlug } });
    expect(body.data.ticket).toMatchObject({
      id: ticket.id,
      ticket_number: ticket.ticket_number,
      subject: "Lamp broke",
    });
    expect(got.headers["cove-delivery-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const signature = String(got.headers["cove-signature"]);
    expect(verify(got.body, signature, hook.secret)).toBe(true);
    expect(verify(got.body, signature, "whsec_wrong")).toBe(false);
    expect(verify(`${got.body} `, signature, hook.secret)).toBe(false);
    // A replay later than the tolerance is refused: the same delivery checked with a tolerance it is outside of.
    expect(verify(got.body, signature.replace(/t=\d+/, "t=1000"), hook.secret)).toBe(false);

    // A note is marked as such; the log shows the delivery.
    await addComment(t.app, org, ticket.id, { body: "Internal only", is_public: false });
    const note = await receiver.until((all) => at(hook.path)(all).find((r) => json(r).type === "comment.added"));
    expect(json(note).data.comment).toMatchObject({ body: "Internal only", is_public: false });
    const log = await until(async () => {
      const list = await deliveries(org, hook.webhook.id);
      return list.length === 2 && list.every((d) => d.status === "delivered") && list;
    });
    expect(log[1]).toMatchObject({ event: "ticket.created", status_code: 200 });
    expect(log[1]?.response).toMatch(/^answer \d+$/);
    expect(log[0]?.duration_ms).toBeGreaterThanOrEqual(0);

    // Changing events and turning off.
    const put = await call(org, "PUT", `/api/webhooks/${hook.webhook.id}`, {
      events: ["ticket.solved"],
      enabled: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ webhook: { events: ["ticket.solved"], enabled: false } });
    const del = await call(org, "DELETE", `/api/webhooks/${hook.webhook.id}`);
    expect(del.statusCode).toBe(200);
    expect((await call(org, "GET", "/api/webhooks")).json()).toEqual({ webhooks: [] });
  });

  it("signs with both secrets for a day after a roll, and the docs' receiver accepts either", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    const rolled = await call(org, "POST", `/api/webhooks/${hook.webhook.id}/roll-secret`);
    expect(rolled.statusCode, rolled.body).toBe(200);
    const next = (rolled.json() as WebhookWithSecretAnswer).secret;
    expect(next).not.toBe(hook.secret);
    expect((rolled.json() as WebhookWithSecretAnswer).webhook.previous_secret_expires_at).not.toBeNull();
    await createTicket(t.app, org);
    const [got] = await receiver.until((all) => at(hook.path)(all).length >= 1 && at(hook.path)(all));
    if (!got) throw new Error("nothing received");
    const header = String(got.headers["cove-signature"]);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verify(got.body, header, next)).toBe(true);
    expect(verify(got.body, header, hook.secret)).toBe(true);
  });

  it("retries a failed delivery with backoff until the receiver answers 2xx, with one delivery id", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    behaviour.set(hook.path, (n) => (n <= 2 ? 500 : 200));
    await createTicket(t.app, org);
    const tries = await receiver.until((all) => at(hook.path)(all).length >= 3 && at(hook.path)(all));
    expect(new Set(tries.map((r) => r.headers["cove-delivery-id"])).size).toBe(1);
    const [delivery] = await until(async () => {
      const list = await deliveries(org, hook.webhook.id);
      return list[0]?.status === "delivered" && list;
    });
    expect(delivery).toMatchObject({ attempts: 3, status_code: 200 });
  });

  it("delivers one ticket's events in order, a later one waiting while an earlier one is retried", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created", "ticket.updated", "comment.added"]);
    behaviour.set(hook.path, (n) => (n === 1 ? 503 : 200));
    const ticket = await createTicket(t.app, org);
    await call(org, "PUT", `/api/tickets/${ticket.id}`, { priority: "high" });
    await addComment(t.app, org, ticket.id);
    await call(org, "PUT", `/api/tickets/${ticket.id}`, { priority: "low" });
    const got = await receiver.until((all) => {
      const ok = at(hook.path)(all);
      return ok.length >= 5 && ok;
    });
    // The first attempt failed: the others waited for its retry, so the accepted ones are in the events' order.
    const accepted = got.slice(1).map((r) => json(r));
    expect(accepted.map((b) => b.type)).toEqual([
      "ticket.created",
      "ticket.updated",
      "comment.added",
      "ticket.updated",
    ]);
    const ids = accepted.map((b) => Number(b.id.slice(4)));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(accepted[3]?.data.ticket.priority).toBe("low");
    expect(accepted[1]?.data.changes).toEqual({ priority: { from: "normal", to: "high" } });
  });

  it("sends contact.created and ticket.solved with the contact and the ticket as the API answers them", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["contact.created", "ticket.solved"]);
    const ticket = await createTicket(t.app, org, { requester_email: "new.customer@example.com" });
    // A second ticket of the same customer: no second contact.created.
    await createTicket(t.app, org, { requester_email: "new.customer@example.com" });
    const solved = await call(org, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" });
    expect(solved.statusCode, solved.body).toBe(200);
    const got = await receiver.until((all) => at(hook.path)(all).length >= 2 && at(hook.path)(all));
    const bodies = got.map((r) => JSON.parse(r.body) as { type: string; data: { contact?: Obj; ticket?: Obj } });
    expect(bodies.map((b) => b.type).sort()).toEqual(["contact.created", "ticket.solved"]);
    const contact = bodies.find((b) => b.type === "contact.created")?.data.contact;
    expect(contact).toMatchObject({ email: "new.customer@example.com", name: "Ana Ruiz" });
    const done = bodies.find((b) => b.type === "ticket.solved")?.data.ticket;
    expect(done).toMatchObject({ id: ticket.id, status: "solved" });
    // Deliveries are written with their change: once the requests are answered, these are all there will be.
    const rows = await queryRows<{ event_type: string }>(
      t.database.db,
      sql`select event_type from webhook_deliveries where webhook_id = ${hook.webhook.id} order by seq`,
    );
    expect(rows.map((r) => r.event_type)).toEqual(["contact.created", "ticket.solved"]);
  });

  it("sends csat.answered with the rating the ticket shows (rated_at in ISO 8601 UTC, an empty comment as null)", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["csat.answered"]);
    const orgId = org.user.organizationId;
    for (const [comment, expected] of [
      ["Quick and kind", "Quick and kind"],
      ["", null],
    ] as const) {
      const ticket = await createTicket(t.app, org);
      expect((await call(org, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" })).statusCode).toBe(200);
      // The customer's answer, as the survey page writes it, then its event.
      await t.database.db.execute(
        sql`update csat_surveys set rating = 'good', comment = ${comment}, answered_at = '2026-11-02T10:15:30.123Z'
            where organization_id = ${orgId} and ticket_id = ${ticket.id}`,
      );
      await withSystem(t.database.db, orgId, "csat", (ctx) =>
        ctx.emit("csat.rated", { ticket_id: ticket.id, rating: "good" }),
      );
      const got = await receiver.until((all) =>
        at(hook.path)(all).find((r) => (JSON.parse(r.body) as { data: { ticket: Obj } }).data.ticket.id === ticket.id),
      );
      const rating = (JSON.parse(got.body) as { data: { rating: Obj } }).data.rating;
      expect(rating).toEqual({ rating: "good", comment: expected, rated_at: "2026-11-02T10:15:30.123Z" });
      const shown = (await call(org, "GET", `/api/tickets/${ticket.id}`)).json().ticket.rating;
      expect(shown).toEqual(rating);
    }
  });

  it("sends a chat's start, messages and hand-off in order, and posts the hand-off to Slack", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["chat.started", "chat.message", "chat.handed_off"]);
    const slack = await call(org, "POST", "/api/webhooks", {
      kind: "slack",
      url: `${receiver.url}/slack-chat`,
      events: ["chat.handed_off"],
    });
    expect(slack.statusCode, slack.body).toBe(201);
    const slug = org.user.organizationSlug;
    const started = await call(null, "POST", `/api/public/${slug}/chat/sessions`, { name: "Lee <Park>" });
    expect(started.statusCode, started.body).toBe(201);
    const chat = started.json() as { token: string; session: { id: string } };
    const said = await call(chat.token, "POST", `/api/public/${slug}/chat/sessions/${chat.session.id}/messages`, {
      message: "I want to talk to a person",
    });
    expect(said.statusCode, said.body).toBe(201);
    const handOff = await receiver.until((all) => at(hook.path)(all).find((r) => json(r).type === "chat.handed_off"));
    const types = at(hook.path)(receiver.received).map((r) => json(r).type);
    expect(types[0]).toBe("chat.started");
    expect(types).toContain("chat.message");
    expect(types.indexOf("chat.handed_off")).toBeGreaterThan(types.indexOf("chat.message"));
    const body = JSON.parse(handOff.body) as { data: { chat: Obj; reason: string } };
    expect(body.data).toMatchObject({ chat: { id: chat.session.id }, reason: "person_requested" });
    const visitorMessage = at(hook.path)(receiver.received)
      .map((r) => JSON.parse(r.body) as { type: string; data: { message?: Obj } })
      .find((b) => b.type === "chat.message" && b.data.message?.sender_type === "visitor");
    expect(visitorMessage?.data.message).toMatchObject({ message: "I want to talk to a person" });
    const posted = await receiver.until((all) => at("/slack-chat")(all)[0]);
    expect((JSON.parse(posted.body) as { text: string }).text).toBe(
      `A chat with Lee &lt;Park&gt; waits for a person (the visitor asked for a person): <http://cove.test/chat?session=${chat.session.id}|Open the chat>`,
    );
  });

  it("sends nothing for a change that rolls back", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    await expect(
      withTenant(t.database.db, { orgId: org.user.organizationId, userId: org.user.id, role: "admin" }, async (ctx) => {
        await openTicket(ctx, createTicketBody.parse(ticketFields({ subject: "Never committed" })), { source: "web" });
        throw new Error("the change fails after the ticket");
      }),
    ).rejects.toThrow("the change fails");
    await createTicket(t.app, org, { subject: "Committed" });
    const got = await receiver.until((all) => at(hook.path)(all).length >= 1 && at(hook.path)(all));
    expect(got.map((r) => json(r).data.ticket.subject)).toEqual(["Committed"]);
    const rows = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from webhook_deliveries where webhook_id = ${hook.webhook.id}`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("turns the endpoint off and emails the admins when every retry fails", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    behaviour.set(hook.path, () => 500);
    await createTicket(t.app, org);
    const off = await until(async () => {
      const res = await call(org, "GET", "/api/webhooks");
      const found = (res.json() as { webhooks: Webhook[] }).webhooks[0];
      return found && !found.enabled && found;
    });
    expect(off.disabled_reason).toMatch(/Turned off by Cove/);
    expect(at(hook.path)(receiver.received)).toHaveLength(3);
    const [delivery] = await deliveries(org, hook.webhook.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 3, status_code: 500 });
    const mail = await until(async () => {
      const files = readdirSync(t.outboxDir).filter((f) => f.endsWith(".eml"));
      const texts = files.map((f) => readFileSync(path.join(t.outboxDir, f), "utf8"));
      return texts.find((m) => m.includes("A webhook was turned off") && m.includes(org.user.email));
    });
    expect(mail).toBeTruthy();
    // While off it sends nothing, and "send again" says why.
    const again = await call(org, "POST", `/api/webhooks/${hook.webhook.id}/deliveries/${delivery?.id}/redeliver`);
    expect(again.statusCode).toBe(409);
  });

  it("gives up on a receiver that does not answer in time, and records why", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    behaviour.set(hook.path, () => "hang");
    await createTicket(t.app, org);
    const [delivery] = await until(async () => {
      const list = await deliveries(org, hook.webhook.id);
      return list[0]?.error ? list : undefined;
    });
    expect(delivery?.error).toMatch(/No answer within/);
    expect(delivery?.status_code).toBeNull();
  });

  it("sends a test event and sends a delivery again with the same event id and a new delivery id", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    const test = await call(org, "POST", `/api/webhooks/${hook.webhook.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const probe = await receiver.until((all) => at(hook.path)(all)[0]);
    expect(json(probe).type).toBe("webhook.test");
    expect(verify(probe.body, String(probe.headers["cove-signature"]), hook.secret)).toBe(true);

    await createTicket(t.app, org);
    const first = await receiver.until((all) => at(hook.path)(all).find((r) => json(r).type === "ticket.created"));
    const list = await until(async () => {
      const l = await deliveries(org, hook.webhook.id);
      return l.find((d) => d.event === "ticket.created" && d.status === "delivered") && l;
    });
    const original = list.find((d) => d.event === "ticket.created");
    const res = await call(org, "POST", `/api/webhooks/${hook.webhook.id}/deliveries/${original?.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(202);
    const copies = await receiver.until((all) => {
      const c = at(hook.path)(all).filter((r) => json(r).type === "ticket.created");
      return c.length >= 2 && c;
    });
    expect(json(copies[1] as Received).id).toBe(json(first).id);
    expect(copies[1]?.headers["cove-delivery-id"]).not.toBe(first.headers["cove-delivery-id"]);
  });

  it("answers another organization's admin 404 on every route, and agents 403", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    await call(org, "POST", `/api/webhooks/${hook.webhook.id}/test`);
    const [delivery] = await until(async () => {
      const l = await deliveries(org, hook.webhook.id);
      return l.length > 0 && l;
    });
    const id = hook.webhook.id;
    const routes: [string, string, unknown?][] = [
      ["PUT", `/api/webhooks/${id}`, { enabled: false }],
      ["POST", `/api/webhooks/${id}/roll-secret`],
      ["POST", `/api/webhooks/${id}/test`],
      ["GET", `/api/webhooks/${id}/deliveries`],
      ["POST", `/api/webhooks/${id}/deliveries/${delivery?.id}/redeliver`],
      ["DELETE", `/api/webhooks/${id}`],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(other, method as "GET", url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain(hook.path);
    }
    expect((await call(other, "GET", "/api/webhooks")).json()).toEqual({ webhooks: [] });
    // A delivery id of another endpoint is not found either.
    const mine = await addWebhook(other, ["ticket.created"]);
    const cross = await call(other, "POST", `/api/webhooks/${mine.webhook.id}/deliveries/${delivery?.id}/redeliver`);
    expect(cross.statusCode).toBe(404);

    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    for (const [method, url, body] of [
      ["GET", "/api/webhooks"],
      ["POST", "/api/webhooks", { url: `${receiver.url}/x`, events: ["ticket.created"] }],
      ...routes,
    ] as [string, string, unknown?][]) {
      const res = await call(agent, method as "GET", url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // Still there, unchanged.
    expect((await call(org, "GET", "/api/webhooks")).json()).toMatchObject({ webhooks: [{ id, enabled: true }] });
  });

  it("connects to the address the name was resolved to, and follows no redirect", async () => {
    const org = await registerOrg(t.app);
    const port = new URL(receiver.url).port;
    const res = await call(org, "POST", "/api/webhooks", {
      url: `http://receiver.test:${port}/named`,
      events: ["ticket.created"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as WebhookWithSecretAnswer).webhook.id;
    behaviour.set("/named", (_n, redirect) => {
      redirect.setHeader("Location", `${receiver.url}/elsewhere`);
      return 302;
    });
    await call(org, "POST", `/api/webhooks/${id}/test`);
    await receiver.until((all) => at("/named")(all)[0]);
    const [delivery] = await until(async () => {
      const list = await deliveries(org, id);
      return list[0]?.status_code === 302 ? list : undefined;
    });
    expect(delivery?.status).toBe("pending");
    expect(receiver.received.some((r) => r.path === "/elsewhere")).toBe(false);
  });

  it("posts Slack messages ({ text, blocks }, mrkdwn, escaped) with a link to the ticket, unsigned", async () => {
    const org = await registerOrg(t.app);
    const res = await call(org, "POST", "/api/webhooks", {
      kind: "slack",
      url: `${receiver.url}/slack`,
      events: ["ticket.created", "ticket.sla_breached"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = await createTicket(t.app, org, {
      subject: "<!channel> & <b>bold</b> *x*",
      requester_name: "Ana <Ruiz>",
    });
    const [got] = await receiver.until((all) => at("/slack")(all).length >= 1 && at("/slack")(all));
    if (!got) throw new Error("nothing received");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["cove-signature"]).toBeUndefined();
    const message = JSON.parse(got.body) as {
      text: string;
      blocks: { type: string; text: { type: string; text: string } }[];
    };
    expect(message.text).toBe(
      `New ticket <http://cove.test/tickets/${ticket.id}|#${ticket.ticket_number} &lt;!channel&gt; &amp; &lt;b&gt;bold&lt;/b&gt; *x*> from Ana &lt;Ruiz&gt;`,
    );
    expect(message.blocks).toEqual([{ type: "section", text: { type: "mrkdwn", text: message.text } }]);
    // An SLA breach, as the automation-timers job announces it.
    await withSystem(t.database.db, org.user.organizationId, "sla", (ctx) =>
      ctx.emit("ticket.sla_breached", { ticket_id: ticket.id, kind: "first_response" }),
    );
    const breach = await receiver.until((all) => at("/slack")(all)[1]);
    expect((JSON.parse(breach.body) as { text: string }).text).toMatch(
      new RegExp(`^SLA breached: First response time passed on <http://cove.test/tickets/${ticket.id}|#`),
    );
  });

  it("keeps the delivery log 30 days, and never drops a delivery still to send", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    await createTicket(t.app, org);
    await call(org, "POST", `/api/webhooks/${hook.webhook.id}/test`);
    await until(async () => {
      const list = await deliveries(org, hook.webhook.id);
      return list.length === 2 && list.every((d) => d.status === "delivered");
    });
    // Both made 31 days ago, one of them waiting for a retry again: the delivered one goes, the pending one stays.
    await t.database.db.execute(
      sql`update webhook_deliveries set created_at = now() - interval '31 days' where webhook_id = ${hook.webhook.id}`,
    );
    await t.database.db.execute(
      sql`update webhook_deliveries set status = 'pending', next_attempt_at = now() + interval '1 hour'
          where webhook_id = ${hook.webhook.id} and event_type = 'ticket.created'`,
    );
    expect(await purgeDeliveries(t.database.db)).toBeGreaterThanOrEqual(1);
    const left = await deliveries(org, hook.webhook.id);
    expect(left.map((d) => d.event)).toEqual(["ticket.created"]);
  });

  it("refuses bad bodies with a clear 400", async () => {
    const org = await registerOrg(t.app);
    const bad: [unknown, RegExp][] = [
      [{ url: `${receiver.url}/x`, events: [] }, /at least one event/],
      // Each event named once (ticket.created and chat.handed_off go to webhooks and to Slack alike).
      [
        { url: `${receiver.url}/x`, events: ["ticket.deleted"] },
        /^Choose events among: ticket\.created, ticket\.updated, ticket\.solved, comment\.added, chat\.started, chat\.message, chat\.handed_off, contact\.created, csat\.answered, ticket\.sla_breached$/,
      ],
      [{ url: `${receiver.url}/x`, events: ["ticket.sla_breached"] }, /A webhook cannot send ticket.sla_breached/],
      [{ kind: "slack", url: `${receiver.url}/x`, events: ["comment.added"] }, /Slack cannot send comment.added/],
      [{ url: "ftp://example.com/x", events: ["ticket.created"] }, /must start with https/],
      [{ url: "not a url", events: ["ticket.created"] }, /full URL/],
      [{ url: "https://user:pw@example.com/x", events: ["ticket.created"] }, /user name or password/],
      [{ url: `${receiver.url}/x`, events: ["ticket.created"], enabled: "yes" }, /enabled must be true or false/],
    ];
    for (const [body, message] of bad) {
      const res = await call(org, "POST", "/api/webhooks", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
  });
});

describe("webhooks in the audit log", () => {
  it("records an endpoint added, changed, its secret rolled and deleted, by the admin, naming only its host", async () => {
    const org = await registerOrg(t.app);
    const hook = await addWebhook(org, ["ticket.created"]);
    const id = hook.webhook.id;
    expect((await call(org, "PUT", `/api/webhooks/${id}`, { enabled: false })).statusCode).toBe(200);
    expect((await call(org, "POST", `/api/webhooks/${id}/roll-secret`)).statusCode).toBe(200);
    expect((await call(org, "DELETE", `/api/webhooks/${id}`)).statusCode).toBe(200);
    const log = await call(org, "GET", "/api/audit-log?limit=200");
    const entries = (log.json() as { entries: { action: string; actor: { id: string }; object: Obj }[] }).entries;
    const actions = ["webhook.created", "webhook.changed", "webhook.secret_rolled", "webhook.deleted"];
    for (const action of actions) {
      const found = entries.filter((e) => e.action === action);
      expect(found, action).toHaveLength(1);
      expect(found[0]?.actor.id).toBe(org.user.id);
      expect(found[0]?.object).toMatchObject({ type: "webhook", id, label: new URL(receiver.url).host });
    }
    expect(log.body).not.toContain(hook.path);
    expect(log.body).not.toContain(hook.secret);
  });
});
