import contentDisposition from "content-disposition";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { safeFilename, sniffType } from "../../src/modules/attachments/attachments.store.ts";
import {
  automatedMail,
  messageIds,
  newTextOfReply,
  normalizeLineEndings,
  reportsFailure,
  subjectTicketNumber,
  textOfHtml,
  unnamedFilename,
} from "../../src/modules/email/email.classify.ts";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { multipartMail } from "../support/mime.ts";

const parse = (headers: string[], body = "Hello") =>
  simpleParser(Buffer.from([...headers, "MIME-Version: 1.0", "Content-Type: text/plain", "", body, ""].join("\r\n")));

describe("the new text of a reply", () => {
  it("cuts Gmail's and Apple Mail's quoted history", () => {
    expect(
      newTextOfReply("Thanks, that fixed it!\n\nOn Mon, 23 Nov 2026 at 10:00, Acme <s@acme.test> wrote:\n> Try again"),
    ).toBe("Thanks, that fixed it!");
  });

  it("cuts Outlook's original message and its header block", () => {
    const outlook = "It works now.\r\n\r\n-----Original Message-----\r\nFrom: Acme\r\nSent: Monday\r\n\r\nTry again";
    expect(newTextOfReply(outlook)).toBe("It works now.");
    const web = "Great.\n\n________________________________\nFrom: Acme Support\nSent: Monday\nOld text";
    expect(newTextOfReply(web)).toBe("Great.");
  });

  it("cuts an attribution line that the client wrapped, wherever it broke", () => {
    const wrapped = [
      "Thanks, that fixed it!\n\nOn Wed, Nov 25, 2026 at 10:00 AM Acme Support <\nsupport+t42@in.cove.example> wrote:\n\n> Try again",
      "Thanks, that fixed it!\n\nOn Wed, Nov 25, 2026 at 10:00 AM Acme Support <support+t42@in.cove.example>\nwrote:\n> Try again",
      "Thanks, that fixed it!\r\n\r\nOn Wed, Nov 25, 2026 at 10:00 AM Acme Customer Support Team of the\r\nNorthern Region <support+t42@in.cove.example>\r\nwrote:\r\n\r\n> Try again",
      "Thanks, that fixed it!\n\nLe mer. 25 nov. 2026 à 10:00, Acme Support <support@acme.test> a\nécrit :\n> Essayez encore",
      "Thanks, that fixed it!\n\nAm Mi., 25. Nov. 2026 um 10:00 Uhr schrieb Acme Support <\nsupport@acme.test>:\n> Noch einmal",
    ];
    for (const text of wrapped) expect(newTextOfReply(text), text).toBe("Thanks, that fixed it!");
  });

  it("keeps a customer's own lines that only look like the start of an attribution", () => {
    const own =
      "On Monday the lamp went dark.\nMy colleague <ana@example.com> wrote:\nit is the fuse.\n\nCan you help?";
    expect(newTextOfReply(own)).toBe(own);
    const noAddress = "On Monday, as the manual\nwrote:\n> quoted";
    expect(newTextOfReply(noAddress)).toBe("On Monday, as the manual\nwrote:");
  });

  it("drops quoted lines between the answers, and keeps the whole text when it only quotes", () => {
    expect(newTextOfReply("> question one\nanswer one\n> question two\nanswer two")).toBe("answer one\nanswer two");
    expect(newTextOfReply("> only a quote")).toBe("> only a quote");
  });
});

describe("mail no person wrote", () => {
  it("recognises reports, auto-replies, lists and mail systems", async () => {
    const cases: [string[], string | null, string][] = [
      [["Content-Type: multipart/report; report-type=delivery-status"], "a@b.c", "bounce"],
      [["Auto-Submitted: auto-generated"], "a@b.c", "auto-reply"],
      [["X-Autoreply: yes"], "a@b.c", "auto-reply"],
      [["Precedence: junk"], "a@b.c", "bulk"],
      [["Precedence: list"], "a@b.c", "bulk"],
      [["Return-Path: <>"], "a@b.c", "bounce"],
      [["Subject: Automatic reply: Lamp"], "a@b.c", "auto-reply"],
      [["Subject: Out of Office"], "a@b.c", "auto-reply"],
      [[], null, "bounce"],
    ];
    for (const [headers, envelopeFrom, kind] of cases) {
      const mail = await parse(["From: a@b.c", ...headers]);
      expect(automatedMail(mail, envelopeFrom, "a@b.c")?.kind, headers.join()).toBe(kind);
    }
    const daemon = await parse(["From: MAILER-DAEMON@mx.example.com"]);
    expect(automatedMail(daemon, "x@y.z", "mailer-daemon@mx.example.com")?.kind).toBe("bounce");
  });

  it("tells a failed delivery from a notice that is no failure (read receipt, complaint, SES delivery)", async () => {
    const cases: [string[], string, string][] = [
      [["Content-Type: multipart/report; report-type=delivery-status; boundary=x"], "a@b.c", "bounce"],
      [['Content-Type: multipart/report; report-type="disposition-notification"; boundary=x'], "a@b.c", "report"],
      [["Content-Type: multipart/report; report-type=feedback-report; boundary=x"], "a@b.c", "report"],
      [["x-amz-sns-message-id: 1"], "no-reply@sns.amazonaws.com", "report"],
    ];
    for (const [headers, from, kind] of cases) {
      const mail = await parse([`From: ${from}`, ...headers]);
      expect(automatedMail(mail, "x@y.z", from)?.kind, headers.join()).toBe(kind);
    }
    const snsBounce = await parse(["From: no-reply@sns.amazonaws.com"], '{"notificationType":"Bounce","bounce":{}}');
    expect(automatedMail(snsBounce, "x@y.z", "no-reply@sns.amazonaws.com")?.kind).toBe("bounce");
    const snsJson = await parse(
      ["From: no-reply@sns.amazonaws.com"],
      '{"Message" : "{\\"notificationType\\":\\"Bounce\\"}"}',
    );
    expect(automatedMail(snsJson, "x@y.z", "no-reply@sns.amazonaws.com")?.kind).toBe("bounce");
  });

  it("recognises a no-reply sender returning a message, and a Hotmail complaint, by the message they carry", async () => {
    const carrying = (from: string, subject: string) =>
      simpleParser(
        multipartMail(
          [`From: ${from}`, `Subject: ${subject}`],
          [
            ["Content-Type: text/plain", "", "See below."],
            ["Content-Type: message/rfc822", "", "From: shop@example.com", "Subject: Order", "", "Shipped."],
          ],
        ),
      );
    const carrier = await carrying("no-reply@mail.carrier.example", "Mail error");
    expect(automatedMail(carrier, "x@y.z", "no-reply@mail.carrier.example")?.kind).toBe("bounce");
    const complaint = await carrying("staff@hotmail.com", "complaint about message from 192.0.2.222");
    expect(automatedMail(complaint, "x@y.z", "staff@hotmail.com")?.kind).toBe("report");
    // A person forwarding a message as an attachment, even with such words in the subject, is a person.
    for (const subject of ["Fwd: my order", "complaint about message from 192.0.2.222"]) {
      const forward = await carrying("ana@example.com", subject);
      expect(automatedMail(forward, "ana@example.com", "ana@example.com"), subject).toBeNull();
    }
    // The parser folds an inline message into the text: the raw text still shows it.
    const inline = await parse(["From: no-reply@mail.carrier.example"], "Could not deliver.");
    const raw = "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: message/rfc822\r\n";
    expect(automatedMail(inline, "x@y.z", "no-reply@mail.carrier.example", raw)?.kind).toBe("bounce");
    const noReplyAlone = await parse(["From: no-reply@forms.example"]);
    expect(automatedMail(noReplyAlone, "x@y.z", "no-reply@forms.example")).toBeNull();
  });

  it("marks Cove's messages failed only when a delivery status report says failed", () => {
    expect(reportsFailure("Final-Recipient: rfc822; a@b.c\nAction: failed\nStatus: 5.1.1")).toBe(true);
    expect(reportsFailure("Final-Recipient: rfc822; a@b.c\r\nAction: delayed\r\nStatus: 4.4.7")).toBe(false);
    expect(reportsFailure("Action: delivered\nAction: failed")).toBe(true);
    expect(reportsFailure("Your message could not be delivered.")).toBe(true);
  });

  it("lets a person's mail through, even one that says auto-submitted no or talks of a failed delivery", async () => {
    const cases = [
      ["Auto-Submitted: no"],
      ["Subject: Delivery failed for my order 1234"],
      ["Subject: Re: Out of stock?"],
      ["Precedence: first-class"],
    ];
    for (const headers of cases) {
      const mail = await parse(["From: ana@example.com", ...headers]);
      expect(automatedMail(mail, "ana@example.com", "ana@example.com"), headers.join()).toBeNull();
    }
  });
});

describe("reading a message", () => {
  it("gives old Mac line endings (CR only) CRLF, and leaves LF and CRLF messages as they are", () => {
    expect(normalizeLineEndings(Buffer.from("Subject: a\rFrom: b@c.d\r\rHello\rworld\r")).toString()).toBe(
      "Subject: a\r\nFrom: b@c.d\r\n\r\nHello\r\nworld\r\n",
    );
    const mixed = Buffer.from("Subject: a\r\n\r\nHello\rworld\r\n");
    expect(normalizeLineEndings(mixed)).toBe(mixed);
    const lf = Buffer.from("Subject: a\n\nHello\r\n");
    expect(normalizeLineEndings(lf)).toBe(lf);
    const none = Buffer.from("Subject: a");
    expect(normalizeLineEndings(none)).toBe(none);
  });

  it("makes text of HTML: paragraphs kept, markup, scripts and images dropped, within a size", () => {
    const html =
      '<p>Hello <b>team</b>,</p><script>alert(1)</script><style>p{}</style><img src="x.png" alt="logo"><p>the <a href="https://shop.example/o/1">order</a>.</p>';
    expect(textOfHtml(html, 10_000)).toBe("Hello team,\n\nthe order [https://shop.example/o/1].");
    expect(textOfHtml(html, 10)).toBe("");
    const deep = `${"<div>".repeat(5000)}deep${"</div>".repeat(5000)}`;
    expect(() => textOfHtml(deep, 1_000_000)).not.toThrow();
  });

  it("names a file without a name after its type", () => {
    expect(unnamedFilename("image/png")).toBe("attachment.png");
    expect(unnamedFilename("Message/RFC822")).toBe("attachment.eml");
    expect(unnamedFilename("text/plain; charset=utf-8")).toBe("attachment.txt");
    expect(unnamedFilename("application/x-unheard-of")).toBe("attachment");
    expect(unnamedFilename(undefined)).toBe("attachment");
  });
});

describe("threading helpers", () => {
  it("reads Message-IDs with or without brackets, and the ticket number of a subject", () => {
    expect(messageIds("<a@b> <c@d>")).toEqual(["a@b", "c@d"]);
    expect(messageIds(["<a@b>", "<c@d>"])).toEqual(["a@b", "c@d"]);
    expect(messageIds("bare@id")).toEqual(["bare@id"]);
    expect(messageIds(undefined)).toEqual([]);
    expect(subjectTicketNumber("Re: Lamp [#42]")).toBe(42);
    expect(subjectTicketNumber("Re: Lamp #42")).toBeNull();
  });
});

describe("the receiver's configuration", () => {
  it("is off unless INBOUND_SMTP_PORT is set, and then needs INBOUND_DOMAIN", () => {
    expect(loadConfig({})).toMatchObject({ inboundSmtpPort: undefined, inboundDomain: undefined });
    expect(loadConfig({ INBOUND_SMTP_PORT: "2525", INBOUND_DOMAIN: "Mail.Example.com" })).toMatchObject({
      inboundSmtpPort: 2525,
      inboundDomain: "mail.example.com",
    });
    expect(() => loadConfig({ INBOUND_SMTP_PORT: "2525" })).toThrow(ConfigError);
    expect(() => loadConfig({ INBOUND_SMTP_PORT: "2525" })).toThrow(/INBOUND_DOMAIN: required/);
    expect(() => loadConfig({ INBOUND_DOMAIN: "not a domain" })).toThrow(/INBOUND_DOMAIN: must be a domain name/);
    expect(() => loadConfig({ INBOUND_SMTP_PORT: "70000", INBOUND_DOMAIN: "a.b" })).toThrow(/INBOUND_SMTP_PORT/);
  });
});

describe("attachment names and types", () => {
  const naughty = [
    "../../etc/passwd",
    "..\\..\\windows\\system32\\cmd.exe",
    "photo.png\r\nContent-Type: text/html",
    'say "hi".txt',
    "nul\u0000byte.pdf",
    "\u202Egnp.exe",
    "...",
    "",
    "%2e%2e%2fsecret",
    "a;b=c.txt",
    "😀 résumé 履歴書.docx",
    "x".repeat(5000),
    "CON",
    "\u200B\uFEFF",
  ];

  it("keeps names that are safe to store and to put in a header", () => {
    for (const name of naughty) {
      const safe = safeFilename(name);
      expect(safe.length, name).toBeGreaterThan(0);
      expect(safe.length, name).toBeLessThanOrEqual(200);
      expect(safe, name).not.toMatch(/[/\\"\p{Cc}\p{Cf}]/u);
      expect(safe.startsWith("."), name).toBe(false);
      // The header a download answers with: bytes a header may carry, and the exact name back when read.
      const header = contentDisposition(safe);
      expect(header, name).toMatch(/^attachment; filename="[\x20-\xff]*"(; filename\*=UTF-8''[\x21-\x7e]*)?$/);
      expect(contentDisposition.parse(header).parameters.filename, name).toBe(safe);
    }
    expect(safeFilename("😀 résumé 履歴書.docx")).toBe("😀 résumé 履歴書.docx");
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
  });

  it("types a file by its bytes, whatever it is called", () => {
    expect(sniffType(Buffer.from("89504e470d0a1a0a0000", "hex"))).toBe("image/png");
    expect(sniffType(Buffer.from("ffd8ffe000", "hex"))).toBe("image/jpeg");
    expect(sniffType(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(sniffType(Buffer.from("RIFF0000WEBPVP8 "))).toBe("image/webp");
    expect(sniffType(Buffer.from("%PDF-1.7"))).toBe("application/pdf");
    expect(sniffType(Buffer.from("<svg onload=alert(1)>"))).toBe("application/octet-stream");
    expect(sniffType(Buffer.from("<html><script>"))).toBe("application/octet-stream");
    expect(sniffType(Buffer.alloc(0))).toBe("application/octet-stream");
  });
});
