import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { contentDisposition, safeFilename, sniffType } from "../src/modules/attachments/attachments.store.ts";
import { automatedMail, messageIds, newTextOfReply, subjectTicketNumber } from "../src/modules/email/email.classify.ts";
import { ConfigError, loadConfig } from "../src/platform/config.ts";

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
      const header = contentDisposition("attachment", safe);
      expect(header, name).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[\x21-\x7e]*$/);
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
