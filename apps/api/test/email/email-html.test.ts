import type { OriginalEmailAnswer, TicketEmail } from "@cove/contract/email.ts";
import { describe, expect, it } from "vitest";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { client, registerOrg, testAppForFile, unique } from "../helpers.ts";

const t = testAppForFile({ email: { inboundDomain: "in.cove.test" } });

const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

/** A message as mail clients send it: text and HTML alternatives (the HTML with a script and a tracking pixel). */
function htmlMail(m: { subject: string; text: string; html?: string; inReplyTo?: string }) {
  const boundary = `b-${unique()}`;
  const head = [
    "From: Ana Ruiz <ana@example.com>",
    "To: shop@in.cove.test",
    `Subject: ${m.subject}`,
    `Message-ID: <${unique()}@mail.example>`,
    ...(m.inReplyTo ? [`In-Reply-To: <${m.inReplyTo}>`] : []),
    "Date: Wed, 25 Nov 2026 02:00:00 +0000",
    "MIME-Version: 1.0",
  ];
  const body = m.html
    ? [
        `Content-Type: multipart/alternative; boundary="${boundary}"`,
        "",
        `--${boundary}`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        m.text,
        `--${boundary}`,
        "Content-Type: text/html; charset=utf-8",
        "",
        m.html,
        `--${boundary}--`,
        "",
      ]
    : ["Content-Type: text/plain; charset=utf-8", "", m.text, ""];
  return Buffer.from([...head, ...body].join("\r\n"));
}

const HTML =
  '<p>Hello,<br><b>the lamp</b> arrived <span style="color:red">broken</span>.</p>' +
  '<script>alert(1)</script><img src="https://tracker.example/p.gif">';

async function emailsOf(org: Org, ticketId: string): Promise<TicketEmail[]> {
  const res = await call(org, "GET", `/api/tickets/${ticketId}/emails`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().emails;
}

describe("a received email as it came", () => {
  it("keeps the HTML of a new ticket's email and of a reply beside the text the ticket shows", async () => {
    const org = await registerOrg(t.app);
    const first = await receiveMail(t.database.db, org.user.organizationId, {
      raw: htmlMail({ subject: "Broken lamp", text: "Hello, the lamp arrived broken.", html: HTML }),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    expect(first.result).toBe("ticket");
    const ticketId = first.result === "ticket" ? first.ticketId : "";
    const ticket = (await call(org, "GET", `/api/tickets/${ticketId}`)).json().ticket;
    expect(ticket.description).toBe("Hello, the lamp arrived broken.");

    const reply = await receiveMail(t.database.db, org.user.organizationId, {
      raw: htmlMail({
        subject: `Re: [#${ticket.ticket_number}] Broken lamp`,
        text: "Any news?",
        html: "<p>Any news?</p>",
      }),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    expect(reply.result).toBe("comment");

    const emails = await emailsOf(org, ticketId);
    expect(emails.map((e) => [e.comment_id, e.has_html, e.subject])).toEqual([
      [null, true, "Broken lamp"],
      [reply.result === "comment" ? reply.commentId : "", true, `Re: [#${ticket.ticket_number}] Broken lamp`],
    ]);
    const original = await call(org, "GET", `/api/email/messages/${emails[0]?.id}`);
    expect(original.statusCode, original.body).toBe(200);
    const email = (original.json() as OriginalEmailAnswer).email;
    // As it came: the viewer sanitizes it (it is never served as a page).
    expect(email).toMatchObject({ ticket_id: ticketId, address: "ana@example.com", html: HTML });
    expect(original.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("has no HTML for a plain-text email, nor for HTML past the size kept", async () => {
    const org = await registerOrg(t.app);
    const plain = await receiveMail(t.database.db, org.user.organizationId, {
      raw: htmlMail({ subject: "Plain", text: "Just text." }),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    const huge = await receiveMail(t.database.db, org.user.organizationId, {
      raw: htmlMail({ subject: "Huge", text: "Big newsletter.", html: `<p>${"x".repeat(600 * 1024)}</p>` }),
      envelopeFrom: "bo@example.com",
      tag: null,
    });
    for (const outcome of [plain, huge]) {
      const id = outcome.result === "ticket" ? outcome.ticketId : "";
      const [email] = await emailsOf(org, id);
      expect(email?.has_html).toBe(false);
      expect((await call(org, "GET", `/api/email/messages/${email?.id}`)).json().email.html).toBeNull();
    }
  });

  it("shows another organization nothing: 404 for the ticket's emails and for the email", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const first = await receiveMail(t.database.db, org.user.organizationId, {
      raw: htmlMail({ subject: "Secret order 7731", text: "Private.", html: "<p>Private.</p>" }),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    const ticketId = first.result === "ticket" ? first.ticketId : "";
    const [email] = await emailsOf(org, ticketId);
    for (const url of [`/api/tickets/${ticketId}/emails`, `/api/email/messages/${email?.id}`]) {
      const res = await call(other, "GET", url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain("7731");
    }
    expect((await call(null, "GET", `/api/email/messages/${email?.id}`)).statusCode).toBe(401);
  });
});
