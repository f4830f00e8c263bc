import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
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
