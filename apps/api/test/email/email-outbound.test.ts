import type { Ticket } from "@cove/contract/tickets.ts";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createTicket,
  registerOrg,
  saveEmailSettings,
  type TestApp,
  unique,
} from "../helpers.ts";
import { startSmtp, type TestSmtp } from "../smtp.ts";

const DOMAIN = "in.cove.test";
let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    smtpUrl: smtp.url,
    email: { inboundDomain: DOMAIN, retryLimit: 1, retryDelaySeconds: 1 },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const call = client(() => t.app);

async function newOrg() {
  const org = await registerOrg(t.app);
  const me = (await call(org.token, "GET", "/api/auth/me")).json() as { user: { organizationSlug: string } };
  return { ...org, slug: me.user.organizationSlug };
}

const newTicket = (token: string, email: string) =>
  createTicket(t.app, token, { subject: "The lamp flickers", description: "Since Monday.", requester_email: email });

const reply = (token: string, id: string, body: string, isPublic = true) =>
  call(token, "POST", `/api/tickets/${id}/comments`, { body, is_public: isPublic });

async function commentStatus(token: string, ticketId: string, commentId: string, want: string) {
  const deadline = Date.now() + 15_000;
  let status: string | null | undefined;
  while (Date.now() < deadline) {
    const ticket = (await call(token, "GET", `/api/tickets/${ticketId}`)).json().ticket as Ticket;
    status = ticket.comments.find((c) => c.id === commentId)?.email_status;
    if (status === want) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  return status;
}

describe("outbound email", () => {
  it("emails a public reply to the requester, threaded, from the organization's sender name", async () => {
    const org = await newOrg();
    const put = await saveEmailSettings(t.app, org.token, {
      sender_name: "Lamp Support",
      signature: "The lamp people",
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ inbound_address: `${org.slug}@${DOMAIN}` });
    const customer = `ana-${unique()}@example.com`;
    const ticket = await newTicket(org.token, customer);

    const first = await reply(org.token, ticket.id, "Have you tried another bulb?");
    expect(first.statusCode).toBe(201);
    const firstId = first.json().comment.id as string;
    const [mail1] = await smtp.waitFor(1, (m) => m.to.includes(customer));
    expect(mail1).toBeDefined();
    const one = await simpleParser(mail1?.raw ?? "");
    expect(one.from?.value[0]).toMatchObject({ name: "Lamp Support", address: "no-reply@cove.test" });
    expect(one.subject).toBe(`Re: The lamp flickers [#${ticket.ticket_number}]`);
    expect(one.messageId).toBe(`<reply.${firstId}@${DOMAIN}>`);
    expect(one.replyTo?.value[0]?.address).toBe(`${org.slug}+t${ticket.ticket_number}@${DOMAIN}`);
    expect(one.text).toContain("Have you tried another bulb?");
    expect(one.text).toContain("The lamp people");
    expect(await commentStatus(org.token, ticket.id, firstId, "sent")).toBe("sent");

    const second = await reply(org.token, ticket.id, "Any news?");
    const secondId = second.json().comment.id as string;
    const mails = await smtp.waitFor(2, (m) => m.to.includes(customer));
    const two = await simpleParser(mails[1]?.raw ?? "");
    expect(two.messageId).toBe(`<reply.${secondId}@${DOMAIN}>`);
    expect(two.inReplyTo).toBe(`<reply.${firstId}@${DOMAIN}>`);
    expect(two.references).toEqual(`<reply.${firstId}@${DOMAIN}>`);
  });

  it("never emails an internal note", async () => {
    const org = await newOrg();
    const customer = `ben-${unique()}@example.com`;
    const ticket = await newTicket(org.token, customer);
    const note = await reply(org.token, ticket.id, "Internal: he is a reseller", false);
    expect(note.statusCode).toBe(201);
    const after = await reply(org.token, ticket.id, "Public answer");
    await smtp.waitFor(1, (m) => m.to.includes(customer));
    await new Promise((r) => setTimeout(r, 500));
    const sent = smtp.inbox.filter((m) => m.to.includes(customer));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.decoded).toContain("Public answer");
    expect(sent[0]?.decoded).not.toContain("reseller");
    const detail = (await call(org.token, "GET", `/api/tickets/${ticket.id}`)).json().ticket as Ticket;
    expect(detail.comments.find((c) => c.id === note.json().comment.id)?.email_status).toBeNull();
    expect(after.statusCode).toBe(201);
  });

  it("marks the reply failed when the mail server keeps refusing it", async () => {
    const org = await newOrg();
    const customer = `cy-${unique()}@example.com`;
    const ticket = await newTicket(org.token, customer);
    smtp.refuseNext(2);
    const res = await reply(org.token, ticket.id, "This will not arrive");
    const id = res.json().comment.id as string;
    expect(await commentStatus(org.token, ticket.id, id, "failed")).toBe("failed");
    expect(smtp.inbox.filter((m) => m.to.includes(customer))).toHaveLength(0);
  });
});
