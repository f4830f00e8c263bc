import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Ticket } from "@cove/contract/tickets.ts";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { addComment, addMember, createTicket, saveEmailSettings, unique } from "../helpers.ts";
import { INBOUND_DOMAIN, type InboundOrg, inboundMailForFile } from "../support/inbound-mail.ts";
import { multipartMail } from "../support/mime.ts";

const DOMAIN = INBOUND_DOMAIN;
const FIXTURES = path.join(import.meta.dirname, "../fixtures/email");
const { t, smtp, receiver, call, newOrg, ticketsOf } = inboundMailForFile();

type Org = InboundOrg;

/** A plain message as a mail client writes it. */
function message(m: {
  from: string;
  to: string;
  subject: string;
  text: string;
  id?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: string[];
}): Buffer {
  const id = m.id ?? `${unique()}@client.example`;
  return Buffer.from(
    [
      `From: ${m.from}`,
      `To: ${m.to}`,
      `Subject: ${m.subject}`,
      `Message-ID: <${id}>`,
      ...(m.inReplyTo ? [`In-Reply-To: <${m.inReplyTo}>`] : []),
      ...(m.references ? [`References: ${m.references.map((r) => `<${r}>`).join(" ")}`] : []),
      ...(m.headers ?? []),
      "Date: Wed, 25 Nov 2026 02:00:00 +0000",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      m.text,
      "",
    ].join("\r\n"),
  );
}

type MessageFields = Parameters<typeof message>[0];

/**
 * A message the customer sends from their own address, which is the envelope's sender too; to the organization's
 * address unless it says otherwise, with the address's tag (`+t12`) when given.
 */
const fromCustomer = (
  org: Org,
  customer: string,
  m: Omit<MessageFields, "from" | "to"> & { to?: string },
  tag: string | null = null,
) => deliver(org, message({ from: customer, to: `${org.slug}@${DOMAIN}`, ...m }), customer, tag);

const deliver = (
  org: Org,
  raw: Buffer,
  envelopeFrom: string | null = "someone@example.com",
  tag: string | null = null,
) => receiveMail(t.database.db, org.id, { raw, envelopeFrom, tag });

describe("inbound email", () => {
  it("files a thread of three messages into one ticket, in order, and acknowledges the first", async () => {
    const org = await newOrg();
    const customer = `ana-${unique()}@example.com`;
    const to = `${org.slug}@${DOMAIN}`;
    const first = await deliver(
      org,
      message({ from: `Ana Ruiz <${customer}>`, to, subject: "Lamp flickers", text: "It flickers.", id: "m1@ana" }),
      customer,
    );
    expect(first.result).toBe("ticket");
    const reply = (text: string, id: string, threading: Pick<MessageFields, "inReplyTo" | "references">) =>
      fromCustomer(org, customer, { subject: "Re: Lamp flickers", text, id, ...threading });
    const second = await reply("Still flickering.\n\nOn Tue, Ana Ruiz wrote:\n> It flickers.", "m2@ana", {
      inReplyTo: "m1@ana",
    });
    expect(second.result).toBe("comment");
    const third = await reply("Now it is dark.\n> Still flickering.", "m3@ana", { references: ["m1@ana", "m2@ana"] });
    expect(third.result).toBe("comment");

    const [ticket, ...others] = await ticketsOf(org);
    expect(others).toHaveLength(0);
    expect(ticket).toMatchObject({ subject: "Lamp flickers", source: "email", requester_email: customer });
    expect(ticket?.description).toBe("It flickers.");
    expect(ticket?.comments.map((c) => c.body)).toEqual(["Still flickering.", "Now it is dark."]);

    // The acknowledgement: once, threaded under the customer's message, marked as an automatic reply.
    const [ack] = await smtp.waitFor(1, (m) => m.to.includes(customer));
    const parsed = await simpleParser(ack?.raw ?? "");
    expect(parsed.inReplyTo).toBe("<m1@ana>");
    expect(parsed.headers.get("auto-submitted")).toBe("auto-replied");
    expect(parsed.subject).toBe(`Re: Lamp flickers [#${ticket?.ticket_number}]`);
    expect(parsed.replyTo?.value[0]?.address).toBe(`${org.slug}+t${ticket?.ticket_number}@${DOMAIN}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.inbox.filter((m) => m.to.includes(customer))).toHaveLength(1);
  });

  it("answers a reply to Cove's own email on the ticket, by its Message-ID or by the number in the address", async () => {
    const org = await newOrg();
    const customer = `ben-${unique()}@example.com`;
    const opened = await fromCustomer(org, customer, { subject: "Refund", text: "Please refund." });
    if (opened.result !== "ticket") throw new Error(opened.result);
    const agentReply = await addComment(t.app, org.token, opened.ticketId, { body: "Done, refunded." });
    const replyId = `reply.${agentReply.id}@${DOMAIN}`;
    // The customer answers the email once it has arrived (with the acknowledgement before it).
    await smtp.waitFor(2, (m) => m.to.includes(customer));
    const byId = await fromCustomer(org, customer, { subject: "Re: Refund", text: "Thanks!", inReplyTo: replyId });
    expect(byId).toMatchObject({ result: "comment", ticketId: opened.ticketId });
    const [ticket] = await ticketsOf(org);
    const byTag = await fromCustomer(
      org,
      customer,
      { to: `${org.slug}+t${ticket?.ticket_number}@${DOMAIN}`, subject: "one more", text: "PS" },
      `t${ticket?.ticket_number}`,
    );
    expect(byTag).toMatchObject({ result: "comment", ticketId: opened.ticketId });
  });

  it("never files a forged In-Reply-To or ticket number from another sender into someone else's ticket", async () => {
    const org = await newOrg();
    const victim = `vic-${unique()}@example.com`;
    const opened = await fromCustomer(org, victim, { subject: "Private", text: "My card ends 4242.", id: "v1@vic" });
    if (opened.result !== "ticket") throw new Error(opened.result);
    const [victimTicket] = await ticketsOf(org);
    const attacker = `eve-${unique()}@example.com`;
    const forged = await fromCustomer(
      org,
      attacker,
      { subject: `Re: Private [#${victimTicket?.ticket_number}]`, text: "Add me", inReplyTo: "v1@vic" },
      `t${victimTicket?.ticket_number}`,
    );
    expect(forged.result).toBe("ticket");
    const tickets = await ticketsOf(org);
    expect(tickets).toHaveLength(2);
    expect(tickets[0]?.comments).toHaveLength(0);
    expect(tickets[1]?.requester_email).toBe(attacker);
  });

  it("keeps organizations apart: a Message-ID of another organization's thread opens a new ticket", async () => {
    const a = await newOrg();
    const b = await newOrg();
    const customer = `cy-${unique()}@example.com`;
    const inB = await fromCustomer(b, customer, { subject: "B's", text: "for B", id: "b1@cy" });
    expect(inB.result).toBe("ticket");
    const inA = await fromCustomer(a, customer, { subject: "Re: B's", text: "for A", inReplyTo: "b1@cy" });
    expect(inA.result).toBe("ticket");
    expect(await ticketsOf(a)).toHaveLength(1);
    const [bTicket] = await ticketsOf(b);
    expect(bTicket?.comments).toHaveLength(0);
  });

  it("never makes a ticket of, nor answers, a bounce or an auto-reply", async () => {
    const org = await newOrg();
    const robot = `robot-${unique()}@example.com`;
    const cases: [string, Buffer, string | null][] = [
      [
        "auto-submitted",
        message({
          from: robot,
          to: "x",
          subject: "Away",
          text: "I am away",
          headers: ["Auto-Submitted: auto-replied"],
        }),
        robot,
      ],
      [
        "x-autoreply",
        message({ from: robot, to: "x", subject: "Hi", text: "away", headers: ["X-Autoreply: yes"] }),
        robot,
      ],
      [
        "precedence",
        message({ from: robot, to: "x", subject: "News", text: "news", headers: ["Precedence: bulk"] }),
        robot,
      ],
      ["null return path", message({ from: robot, to: "x", subject: "Hm", text: "report" }), null],
      ["daemon", message({ from: `MAILER-DAEMON@mx.example.com`, to: "x", subject: "Failure", text: "failed" }), robot],
    ];
    for (const [name, raw, envelopeFrom] of cases) {
      const outcome = await deliver(org, raw, envelopeFrom);
      expect(outcome.result, name).toBe("ignored");
    }
    expect(await ticketsOf(org)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.inbox.filter((m) => m.to.includes(robot))).toHaveLength(0);
  });

  it("marks Cove's own email failed when it bounces", async () => {
    const org = await newOrg();
    const customer = `gone-${unique()}@example.com`;
    const { id: ticketId } = await createTicket(t.app, org.token, { subject: "Hello", requester_email: customer });
    const { id: commentId } = await addComment(t.app, org.token, ticketId, { body: "Answer" });
    await smtp.waitFor(1, (m) => m.to.includes(customer));
    const dsn = multipartMail(
      [
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
        `To: ${org.slug}+bounces@${DOMAIN}`,
        "Subject: Undelivered Mail Returned to Sender",
      ],
      [
        ["Content-Type: text/plain", "", `<${customer}>: user unknown`],
        [
          "Content-Type: message/delivery-status",
          "",
          "Reporting-MTA: dns; mx.example.com",
          "",
          `Final-Recipient: rfc822; ${customer}`,
          "Action: failed",
          "Status: 5.1.1",
        ],
        ["Content-Type: text/rfc822-headers", "", `Message-ID: <reply.${commentId}@${DOMAIN}>`, "Subject: Re: Hello"],
      ],
      "multipart/report; report-type=delivery-status",
    );
    const outcome = await deliver(org, dsn, null, "bounces");
    expect(outcome).toMatchObject({ result: "ignored", bounced: 1 });
    const ticket = (await call(org.token, "GET", `/api/tickets/${ticketId}`)).json().ticket as Ticket;
    expect(ticket.comments[0]?.email_status).toBe("failed");
    expect(await ticketsOf(org)).toHaveLength(1);
  });

  it("sends no acknowledgement when Email Settings turn it off", async () => {
    const org = await newOrg();
    const put = await saveEmailSettings(t.app, org.token, { acknowledge: false });
    expect(put.json()).toMatchObject({ acknowledge: false, inbound_address: `${org.slug}@${DOMAIN}` });
    const customer = `quiet-${unique()}@example.com`;
    const outcome = await fromCustomer(org, customer, { to: "x", subject: "Q", text: "q" });
    expect(outcome.result).toBe("ticket");
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.inbox.filter((m) => m.to.includes(customer))).toHaveLength(0);
  });

  it("files every message of a sender writing too fast, and tags those past the loop guard", async () => {
    const org = await newOrg();
    const loop = `loop-${unique()}@example.com`;
    const results: string[] = [];
    for (let i = 0; i < 12; i++) {
      const outcome = await deliver(org, message({ from: loop, to: "x", subject: `n${i}`, text: "again" }), loop);
      results.push(outcome.result);
    }
    expect(results).toEqual(Array(12).fill("ticket"));
    const tickets = await ticketsOf(org);
    expect(tickets.map((x) => x.tags)).toEqual([...Array(10).fill([]), ["loop-guard"], ["loop-guard"]]);
    // (email/email-kept.test.ts sends them over SMTP and checks that no acknowledgement goes out for them.)
  });

  it("keeps a message with too many header lines, without filing it", async () => {
    const org = await newOrg();
    const headers = Array.from({ length: 1100 }, (_, i) => `X-Filler-${i}: x`);
    const outcome = await deliver(org, message({ from: "a@example.com", to: "x", subject: "s", text: "t", headers }));
    expect(outcome.result).toBe("rejected");
    const { rows } = await t.database.executeSql(
      "select status, reason, length(raw) > 0 as kept from email_messages where organization_id = $1",
      [org.id],
    );
    expect(rows).toEqual([{ status: "rejected", reason: "More than 1000 header lines.", kept: true }]);
    expect(await ticketsOf(org)).toHaveLength(0);
  });

  it("shows admins what was kept without filing, with the raw text as a download, to nobody else", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const agent = await addMember(t.database, org.id, { role: "agent" });
    await deliver(
      org,
      message({ from: "r@example.com", to: "x", subject: "Away", text: "a", headers: ["X-Autoreply: yes"] }),
    );
    const headers = Array.from({ length: 1001 }, (_, i) => `X-Filler-${i}: x`);
    await deliver(
      org,
      message({ from: "a@example.com", to: "x", subject: "Huge", text: "<script>x</script>", headers }),
    );

    const list = await call(org.token, "GET", "/api/email/unfiled");
    expect(list.statusCode).toBe(200);
    const messages = list.json().messages as { id: string; status: string; reason: string; has_raw: boolean }[];
    // Both with their text: an automatic reply, a bounce or a complaint can say something an admin needs.
    expect(messages.map((m) => [m.status, m.has_raw])).toEqual([
      ["rejected", true],
      ["ignored", true],
    ]);
    expect(messages[1]?.reason).toBe("Marked x-autoreply: yes.");

    const raw = await call(org.token, "GET", `/api/email/unfiled/${messages[0]?.id}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(raw.headers["content-disposition"]).toMatch(/^attachment;/);
    expect(raw.body).toContain("<script>x</script>");

    expect((await call(agent.token, "GET", "/api/email/unfiled")).statusCode).toBe(403);
    expect((await call(other.token, "GET", `/api/email/unfiled/${messages[0]?.id}/raw`)).statusCode).toBe(404);
    expect((await call(other.token, "GET", "/api/email/unfiled")).json().messages).toEqual([]);
    expect((await call(org.token, "GET", "/api/email/unfiled/not-an-id/raw")).statusCode).toBe(404);
  });

  it("keeps the text of an HTML-only message, never its markup", async () => {
    const org = await newOrg();
    const customer = `html-${unique()}@example.com`;
    const raw = Buffer.from(
      [
        `From: ${customer}`,
        `To: ${org.slug}@${DOMAIN}`,
        "Subject: Rich",
        `Message-ID: <${unique()}@html>`,
        "MIME-Version: 1.0",
        "Content-Type: text/html; charset=utf-8",
        "",
        '<p>Hello <b>team</b>,</p><script>alert("x")</script><img src=x onerror=alert(1)><p>the lamp.</p>',
        "",
      ].join("\r\n"),
    );
    expect((await deliver(org, raw, customer)).result).toBe("ticket");
    const [ticket] = await ticketsOf(org);
    expect(ticket?.description).toMatch(/Hello team,/);
    expect(ticket?.description).toMatch(/the lamp\./);
    expect(ticket?.description).not.toMatch(/<|alert|onerror/);
  });

  it("reads every fixture without failing; no bounce or auto-reply among them makes a ticket", async () => {
    const org = await newOrg();
    const automated = /^(sisimai-bounce-|postal-mime-(bounce|arf)|mailparser-delivery-status)/;
    for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith(".eml"))) {
      const raw = readFileSync(path.join(FIXTURES, name));
      const outcome = await deliver(org, raw, `sender@${name}`);
      if (automated.test(name)) expect(outcome.result, name).toBe("ignored");
      else expect(["ticket", "comment", "duplicate", "rejected", "ignored"], name).toContain(outcome.result);
      if (name.startsWith("sisimai-not-")) expect(outcome.result, name).toBe("ticket");
    }
  });
});

describe("the SMTP receiver", () => {
  const client = () =>
    nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false, ignoreTLS: true });

  it("turns mail sent over SMTP to an organization's address into a ticket", async () => {
    const org = await newOrg();
    const customer = `smtp-${unique()}@example.com`;
    await client().sendMail({
      from: `Dee <${customer}>`,
      to: `${org.slug.toUpperCase()}@${DOMAIN}`,
      subject: "Over the wire",
      text: "Sent by a real SMTP client.",
      html: "<p>Sent by a <b>real</b> SMTP client.<script>alert(1)</script></p>",
    });
    const [ticket] = await ticketsOf(org);
    expect(ticket).toMatchObject({ subject: "Over the wire", source: "email", requester_name: "Dee" });
    expect(ticket?.description).toBe("Sent by a real SMTP client.");
  });

  it("refuses addresses that are not an organization's, and mail of one organization never reaches another", async () => {
    const a = await newOrg();
    const b = await newOrg();
    await expect(
      client().sendMail({ from: "x@example.com", to: `nobody-${unique()}@${DOMAIN}`, subject: "s", text: "t" }),
    ).rejects.toThrow(/550/);
    await expect(
      client().sendMail({ from: "x@example.com", to: `${a.slug}@elsewhere.example`, subject: "s", text: "t" }),
    ).rejects.toThrow(/550/);
    await client().sendMail({ from: `f-${unique()}@example.com`, to: `${a.slug}@${DOMAIN}`, subject: "A", text: "a" });
    expect(await ticketsOf(a)).toHaveLength(1);
    expect(await ticketsOf(b)).toHaveLength(0);
  });
});
