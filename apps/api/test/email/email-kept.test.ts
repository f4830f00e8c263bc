import { readFileSync } from "node:fs";
import path from "node:path";
import {
  INBOUND_DEFER_PER_SENDER_PER_MINUTE,
  INBOUND_PER_SENDER_PER_MINUTE,
  LOOP_GUARD_TAG,
} from "@cove/contract/email.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { addComment, createTicket, unique } from "../helpers.ts";
import { PNG } from "../support/files.ts";
import { INBOUND_DOMAIN, type InboundOrg, inboundMailForFile } from "../support/inbound-mail.ts";
import { multipartMail } from "../support/mime.ts";

/**
 * Issue 29: what the inbound email channel accepts, it keeps. Mail goes through the real SMTP receiver (smtp-server)
 * from a real SMTP client (nodemailer); acknowledgements come back to a real SMTP server.
 */

const DOMAIN = INBOUND_DOMAIN;
const FIXTURES = path.join(import.meta.dirname, "../fixtures/email");
const { t, smtp, receiver, call, newOrg, ticketsOf } = inboundMailForFile();
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const sender = () =>
  nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false, ignoreTLS: true, pool: true });

type Org = InboundOrg;
const inbound = (org: Org) => `${org.slug}@${DOMAIN}`;

async function inboundRows(org: Org) {
  const { rows } = await t.database.executeSql(
    `select address, subject, status, reason, raw is not null as has_raw from email_messages
     where organization_id = $1 and direction = 'in' order by created_at, id`,
    [org.id],
  );
  return rows as { address: string; subject: string; status: string; reason: string | null; has_raw: boolean }[];
}

/** Waits until the organization's email jobs (acknowledgements, replies) have all been handled, whatever they did. */
async function emailJobsDone(org: Org): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await t.database.executeSql(
      `select count(*)::int as n from ${t.jobsSchema}.job
       where name like 'event-email-%' and data->>'organization_id' = $1 and state in ('created', 'retry', 'active')`,
      [org.id],
    );
    if ((rows[0] as { n: number }).n === 0) return;
    if (Date.now() > deadline) throw new Error("the email jobs are still waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const mailTo = (address: string) => smtp.inbox.filter((m) => m.to.includes(address));

/**
 * The messages a sender sent the organization a moment ago, as the receiver records them (a row each), so a test
 * reaches a guard with a few messages over SMTP, well inside the guard's minute however busy the machine is.
 */
async function sentEarlier(org: Org, address: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await t.database.executeSql(
      `insert into email_messages (organization_id, direction, message_id, address, subject, status)
       values ($1, 'in', $2, $3, $4, 'received')`,
      [org.id, `earlier-${i}-${unique()}@example.com`, address, `Earlier ${i}`],
    );
  }
}

describe("a sender past the loop guard", { timeout: 90_000 }, () => {
  it("gets 250 only for what is kept: every message filed, the guarded ones tagged and never acknowledged", async () => {
    const org = await newOrg();
    const loop = `loop-${unique()}@example.com`;
    // Eight messages a moment ago; then the 9th to the 12th over SMTP.
    const before = INBOUND_PER_SENDER_PER_MINUTE - 2;
    await sentEarlier(org, loop, before);
    const transport = sender();
    const total = 4;
    const answers: string[] = [];
    for (let i = 1; i <= total; i++) {
      const info = await transport.sendMail({
        from: loop,
        to: inbound(org),
        subject: `Message ${i}`,
        text: `The text of message ${i}.`,
      });
      answers.push(info.response);
    }
    transport.close();
    expect(
      answers.every((a) => a.startsWith("250")),
      answers.join(" | "),
    ).toBe(true);

    // Every message is a ticket with its text; the two past the guard (the 11th and 12th) carry the tag.
    const tickets = await ticketsOf(org);
    expect(tickets.map((x) => x.description)).toEqual(
      Array.from({ length: total }, (_, i) => `The text of message ${i + 1}.`),
    );
    expect(tickets.map((x) => x.tags.includes(LOOP_GUARD_TAG))).toEqual([false, false, true, true]);
    const rows = (await inboundRows(org)).slice(before);
    expect(rows.map((r) => r.status)).toEqual(Array(total).fill("received"));
    expect(rows.map((r) => r.reason)).toEqual([
      null,
      null,
      `More than ${INBOUND_PER_SENDER_PER_MINUTE} messages a minute from this sender: filed without an acknowledgement.`,
      `More than ${INBOUND_PER_SENDER_PER_MINUTE} messages a minute from this sender: filed without an acknowledgement.`,
    ]);

    // Acknowledged: the 9th and 10th, never the guarded ones.
    await emailJobsDone(org);
    const acknowledged = mailTo(loop).map((m) => /^Subject: Re: (Message \d+)/m.exec(m.raw)?.[1]);
    expect(acknowledged.sort()).toEqual(["Message 1", "Message 2"]);

    // An admin finds them in Email Settings, with why and where.
    const listed = await call(org.token, "GET", "/api/email/unfiled");
    expect(listed.statusCode).toBe(200);
    const byId = new Map(tickets.map((x) => [x.id, x.subject]));
    const guarded = listed.json().messages as { subject: string; status: string; ticket_id: string | null }[];
    expect(guarded.map((m) => [m.subject, m.status, byId.get(m.ticket_id ?? "")])).toEqual([
      [`Message ${total}`, "received", `Message ${total}`],
      [`Message ${total - 1}`, "received", `Message ${total - 1}`],
    ]);
  });

  it("keeps a rule from answering the guarded messages; the rule's reply stays on the ticket, marked not sent", async () => {
    const org = await newOrg();
    const rule = await call(org.token, "POST", "/api/automation/rules", {
      name: "Thank everyone",
      triggerConditions: { event: "ticket_created", conditions: [] },
      actions: [{ type: "add_comment", comment: "Thanks, we are on it.", is_public: true }],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const loop = `robot-${unique()}@example.com`;
    // Nine messages a moment ago; the 10th and 11th over SMTP.
    await sentEarlier(org, loop, INBOUND_PER_SENDER_PER_MINUTE - 1);
    const transport = sender();
    for (let i = 1; i <= 2; i++) {
      await transport.sendMail({ from: loop, to: inbound(org), subject: `Alert ${i}`, text: `Alert number ${i}` });
    }
    transport.close();
    await emailJobsDone(org);
    const tickets = await ticketsOf(org);
    const ruleReply = (x: Ticket) => x.comments.find((c) => c.body === "Thanks, we are on it.");
    expect(tickets.map((x) => [x.subject, ruleReply(x)?.email_status])).toEqual([
      ["Alert 1", "sent"],
      ["Alert 2", "failed"],
    ]);
    const replies = mailTo(loop).filter((m) => m.decoded.includes("Thanks, we are on it."));
    expect(replies).toHaveLength(1);
    const { rows } = await t.database.executeSql(
      `select reason from email_messages where organization_id = $1 and direction = 'out' and status = 'failed'`,
      [org.id],
    );
    expect((rows as { reason: string }[]).map((r) => r.reason)).toEqual([
      `Not sent: the customer's last email came past the loop guard (more than ${INBOUND_PER_SENDER_PER_MINUTE} messages a minute from that address), and nothing automatic answers it.`,
    ]);
  });

  it("is refused with 451 past the flood guard, nothing of it stored, and kept when its server tries again", async () => {
    const org = await newOrg();
    const flood = `flood-${unique()}@example.com`;
    // 29 messages a moment ago; the 30th over SMTP is still kept (past the loop guard), the 31st is not.
    await sentEarlier(org, flood, INBOUND_DEFER_PER_SENDER_PER_MINUTE - 1);
    const transport = sender();
    const last = await transport.sendMail({ from: flood, to: inbound(org), subject: "Row 30", text: "row 30" });
    expect(last.response).toMatch(/^250/);
    const late = {
      from: flood,
      to: inbound(org),
      subject: "One too many",
      text: "Please keep this one.",
      messageId: `<late-${unique()}@example.com>`,
    };
    const refused = await transport.sendMail(late).catch((err: { responseCode?: number; response?: string }) => err);
    expect(refused).toMatchObject({ responseCode: 451 });
    expect((refused as { response: string }).response).toMatch(/^451 4\.7\.1 /);
    expect((await ticketsOf(org)).map((x) => x.subject)).toEqual(["Row 30"]);
    expect((await inboundRows(org)).filter((r) => r.subject === "One too many")).toHaveLength(0);

    // A minute later (the rows made older), the sending server's retry is taken and filed, text and all.
    await t.database.executeSql(
      `update email_messages set created_at = created_at - interval '2 minutes' where organization_id = $1`,
      [org.id],
    );
    const retried = await transport.sendMail(late);
    transport.close();
    expect(retried.response).toMatch(/^250/);
    const tickets = await ticketsOf(org);
    expect(tickets.at(-1)).toMatchObject({ subject: "One too many", description: "Please keep this one." });
  });
});

describe("what a message says is kept", () => {
  it("reads an HTML-only body as its text (two real messages)", async () => {
    const org = await newOrg();
    const transport = sender();
    const cases: [string, RegExp][] = [
      ["mikel-content_transfer_encoding_text-html.eml", /You have qualified for the lowest rate in years\./],
      ["mailparser-spam.eml", /Heute verdient er 35 Millionen Euro pro Jahr/],
    ];
    for (const [i, [name]] of cases.entries()) {
      const info = await transport.sendMail({
        envelope: { from: `sender${i}@html.example`, to: [inbound(org)] },
        raw: fixture(name),
      });
      expect(info.response, name).toMatch(/^250/);
    }
    transport.close();
    const tickets = await ticketsOf(org);
    expect(tickets).toHaveLength(cases.length);
    for (const [i, [name, text]] of cases.entries()) {
      expect(tickets[i]?.description, name).toMatch(text);
      // No markup (the spam's own ">>>VIDEO<<<" is its text), and not the placeholder.
      expect(tickets[i]?.description, name).not.toMatch(/<\/?[a-z][^<>]*>|This email had no text/i);
    }
  });

  it("reads a message with old Mac line endings (CR only): subject, sender and text", async () => {
    const org = await newOrg();
    // As a mailbox import hands it over (an old archive); the SMTP receiver files through the same function.
    const outcome = await receiveMail(t.database.db, org.id, {
      raw: fixture("derived-cr-only-mikel-basic_email.eml"),
      envelopeFrom: "",
      tag: null,
    });
    expect(outcome.result).toBe("ticket");
    const [ticket] = await ticketsOf(org);
    expect(ticket).toMatchObject({
      subject: "Testing 123",
      requester_email: "test@lindsaar.net",
      requester_name: "Mikel Lindsaar",
      description: "Plain email.\n\nHope it works well!\n\nMikel",
    });
  });

  it("takes internationalized addresses (RFC 6532) as senders, and answers them", async () => {
    const org = await newOrg();
    const transport = sender();
    // The envelope and the header in UTF-8 (SMTPUTF8); a cc to an address at another domain is refused, never relayed.
    const first = await transport.sendMail({
      from: "Jøran <jøran@blåbærsyltetøy.gulp>",
      to: inbound(org),
      cc: "用户@例子.广告",
      subject: "Lampen blinker",
      text: "Lampen min blinker.",
    });
    expect(first.accepted).toEqual([inbound(org)]);
    expect(first.rejected).toEqual(["用户@例子.广告"]);
    await transport.sendMail({ from: "用户@例子.广告", to: inbound(org), subject: "灯", text: "灯在闪烁。" });
    // The Ruby mail gem's RFC 6532 example: raw UTF-8 headers.
    await transport.sendMail({
      envelope: { from: "jdöe@mächine.example", to: [inbound(org)] },
      raw: fixture("mikel-utf8_headers.eml"),
    });
    transport.close();

    const tickets = await ticketsOf(org);
    expect(tickets.map((x) => [x.requester_email, x.requester_name, x.subject, x.description])).toEqual([
      ["jøran@blåbærsyltetøy.gulp", "Jøran", "Lampen blinker", "Lampen min blinker."],
      ["用户@例子.广告", "用户@例子.广告", "灯", "灯在闪烁。"],
      ["jdöe@mächine.example", "Jöhn Doe", "Säying Hello", "body"],
    ]);
    expect((await inboundRows(org)).map((r) => r.status)).toEqual(["received", "received", "received"]);
    await emailJobsDone(org);
    for (const address of ["jøran@blåbærsyltetøy.gulp", "用户@例子.广告", "jdöe@mächine.example"]) {
      expect(mailTo(address), address).toHaveLength(1);
    }
    // Staff (and the API) can open a ticket for such a customer too; a malformed address is still refused.
    const byStaff = await call(org.token, "POST", "/api/tickets", {
      subject: "Phoned in",
      description: "d",
      requester_name: "Jøran",
      requester_email: "Jøran@Blåbærsyltetøy.gulp",
    });
    expect(byStaff.statusCode, byStaff.body).toBe(201);
    expect(byStaff.json().ticket.requester_email).toBe("jøran@blåbærsyltetøy.gulp");
    const malformed = await call(org.token, "POST", "/api/tickets", {
      subject: "s",
      description: "d",
      requester_name: "n",
      requester_email: "用户@例子",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe("Enter a valid requester email address");
  });

  it("names a file that came without a name after its type", async () => {
    const org = await newOrg();
    const customer = `unnamed-${unique()}@example.com`;
    const raw = multipartMail(
      [
        `From: ${customer}`,
        `To: ${inbound(org)}`,
        "Subject: Screenshot and the mail I got",
        `Message-ID: <${unique()}@unnamed>`,
      ],
      [
        ["Content-Type: text/plain", "", "See the picture."],
        ["Content-Type: image/png", "Content-Transfer-Encoding: base64", "", PNG.toString("base64")],
        ["Content-Type: message/rfc822", "", "From: shop@example.com", "Subject: Your order", "", "Shipped."],
        ["Content-Type: application/x-unheard-of", "", "???"],
      ],
    );
    const transport = sender();
    await transport.sendMail({ envelope: { from: customer, to: [inbound(org)] }, raw });
    transport.close();
    const [ticket] = await ticketsOf(org);
    expect(ticket?.attachments?.map((a) => [a.filename, a.content_type])).toEqual([
      ["attachment.png", "image/png"],
      ["attachment.eml", "application/octet-stream"],
      ["attachment", "application/octet-stream"],
    ]);
  });

  it("leaves a wrapped Gmail attribution and its quote out of a reply", async () => {
    const org = await newOrg();
    const customer = `wrap-${unique()}@example.com`;
    const transport = sender();
    await transport.sendMail({
      from: customer,
      to: inbound(org),
      subject: "Lamp",
      text: "It flickers.",
      messageId: "<lamp-1@wrap.example>",
    });
    await transport.sendMail({
      from: customer,
      to: inbound(org),
      subject: "Re: Lamp",
      inReplyTo: "<lamp-1@wrap.example>",
      text: [
        "Now it is dark.",
        "",
        "On Wed, Nov 25, 2026 at 10:00 AM Acme Support <",
        `${org.slug}+t1@${DOMAIN}> wrote:`,
        "",
        "> It flickers.",
      ].join("\n"),
    });
    transport.close();
    const [ticket] = await ticketsOf(org);
    expect(ticket?.comments.map((c) => c.body)).toEqual(["Now it is dark."]);
  });
});

describe("mail no person wrote, sent with a sender address", () => {
  it("becomes no ticket and no acknowledgement, and is kept for an admin with its text", async () => {
    const org = await newOrg();
    const transport = sender();
    const automated = [
      "sisimai-bounce-lhost-amazonses-09.eml", // SES bounce through SNS, raw message delivery
      "sisimai-bounce-lhost-amazonses-10.eml", // the same as SNS's JSON envelope
      "sisimai-bounce-lhost-amazonses-12.eml", // SES delivery notification
      "sisimai-bounce-arf-22.eml", // Hotmail's complaint, no ARF part
      "sisimai-bounce-lhost-kddi-01.eml", // a Japanese carrier's error notice
    ];
    for (const [i, name] of automated.entries()) {
      const info = await transport.sendMail({
        envelope: { from: `notices${i}@notices.example`, to: [inbound(org)] },
        raw: fixture(name),
      });
      expect(info.response, name).toMatch(/^250/);
    }
    // A person forwarding a message as an attachment is still a person.
    await transport.sendMail({
      envelope: { from: "dummy@example.com", to: [inbound(org)] },
      raw: fixture("sisimai-not-is-not-bounce-02.eml"),
    });
    transport.close();

    const tickets = await ticketsOf(org);
    expect(tickets.map((x) => x.subject)).toEqual(["original as attachment"]);
    const rows = await inboundRows(org);
    expect(rows.filter((r) => r.status === "ignored").map((r) => [r.address, r.has_raw])).toEqual([
      ["no-reply@sns.amazonaws.com", true],
      ["no-reply@sns.amazonaws.com", true],
      ["no-reply@sns.amazonaws.com", true],
      ["staff@hotmail.com", true],
      ["no-reply@x0000000000000.dion.ne.jp", true],
    ]);
    const unfiled = await call(org.token, "GET", "/api/email/unfiled");
    expect((unfiled.json().messages as unknown[]).length).toBe(automated.length);

    await emailJobsDone(org);
    for (const address of ["no-reply@sns.amazonaws.com", "staff@hotmail.com", "no-reply@x0000000000000.dion.ne.jp"]) {
      expect(mailTo(address), address).toHaveLength(0);
    }
  });

  it("marks Cove's reply failed on an SES bounce of it, and not on a delivery notice", async () => {
    const org = await newOrg();
    const customer = `ses-${unique()}@example.com`;
    const { id: ticketId } = await createTicket(t.app, org.token, { subject: "Hello", requester_email: customer });
    const replyIds: string[] = [];
    for (const body of ["First answer", "Second answer"]) {
      const comment = await addComment(t.app, org.token, ticketId, { body });
      replyIds.push(`reply.${comment.id}@${DOMAIN}`);
    }
    await emailJobsDone(org);
    // The real notifications, naming Cove's replies among the headers SES reports (as it does for mail sent by it).
    const naming = (name: string, messageId: string | undefined) =>
      Buffer.from(
        fixture(name)
          .toString("utf8")
          .replace('"headers":[', `"headers":[{"name":"Message-ID","value":"<${messageId}>"},`),
      );
    const transport = sender();
    await transport.sendMail({
      envelope: { from: "bounces@amazonses.example", to: [`${org.slug}+bounces@${DOMAIN}`] },
      raw: naming("sisimai-bounce-lhost-amazonses-09.eml", replyIds[0]),
    });
    await transport.sendMail({
      envelope: { from: "bounces@amazonses.example", to: [`${org.slug}+bounces@${DOMAIN}`] },
      raw: naming("sisimai-bounce-lhost-amazonses-12.eml", replyIds[1]),
    });
    transport.close();
    const ticket = (await call(org.token, "GET", `/api/tickets/${ticketId}`)).json().ticket as Ticket;
    expect(ticket.comments.map((c) => [c.body, c.email_status])).toEqual([
      ["First answer", "failed"],
      ["Second answer", "sent"],
    ]);
  });
});
