import type { HeaderValue, ParsedMail } from "mailparser";

/**
 * What the receiver decides from a message alone: is it mail a machine sent (a bounce, an auto-reply, a list), and what
 * of a reply's text is new. Pure functions, so every rule is tested on its own.
 */

/** The header's value as text ("" when absent); mailparser gives structured values for some headers. */
export function headerText(mail: Pick<ParsedMail, "headers">, name: string): string {
  const value: HeaderValue | undefined = mail.headers.get(name);
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (typeof value === "object" && "value" in value && typeof value.value === "string") return value.value;
  if (typeof value === "object" && "text" in value && typeof value.text === "string") return value.text;
  return String(value);
}

export type Automated = { kind: "bounce" | "auto-reply" | "bulk"; reason: string };

const DAEMON = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)@/i;

/**
 * A message no person wrote: it must never open a ticket nor be answered, or two help desks (or a help desk and an
 * out-of-office) could mail each other forever. envelopeFrom null: the null return path ("MAIL FROM:<>"), which only
 * delivery reports use.
 */
export function automatedMail(
  mail: Pick<ParsedMail, "headers">,
  envelopeFrom: string | null,
  fromAddress: string,
): Automated | null {
  const contentType = headerText(mail, "content-type").toLowerCase();
  if (contentType.startsWith("multipart/report")) {
    return { kind: "bounce", reason: "A delivery or disposition report (multipart/report)." };
  }
  if (envelopeFrom === null) return { kind: "bounce", reason: "Sent with a null return path (a delivery report)." };
  if (DAEMON.test(fromAddress) || DAEMON.test(envelopeFrom)) {
    return { kind: "bounce", reason: "Sent by a mail server (mailer-daemon or postmaster)." };
  }
  const autoSubmitted = headerText(mail, "auto-submitted").trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") {
    return { kind: "auto-reply", reason: `Marked Auto-Submitted: ${autoSubmitted}.` };
  }
  for (const name of ["x-autoreply", "x-autorespond", "x-auto-response-suppress"]) {
    const value = headerText(mail, name).trim().toLowerCase();
    if (value && !(name === "x-auto-response-suppress" && value === "none")) {
      return { kind: "auto-reply", reason: `Marked ${name}: ${value}.` };
    }
  }
  const precedence = headerText(mail, "precedence").trim().toLowerCase();
  if (["bulk", "junk", "list", "auto_reply"].includes(precedence)) {
    return { kind: "bulk", reason: `Marked Precedence: ${precedence}.` };
  }
  return null;
}

/** Lines that start the quoted history under a reply, in the clients people use most. */
const QUOTE_STARTS = [
  /^On .{1,300}wrote:\s*$/, // Gmail, Apple Mail, Thunderbird
  /^-{2,}\s*Original Message\s*-{2,}/i, // Outlook
  /^_{10,}\s*$/, // Outlook on the web
  /^From: .+$/, // Outlook's header block, when no separator precedes it
  /^Le .{1,300}a écrit\s*:\s*$/,
  /^Am .{1,300}schrieb .{0,200}:\s*$/,
];

/**
 * The new text of a reply: everything above the quoted history. Lines quoted with ">" are dropped wherever they are;
 * the first line that starts the history ("On ... wrote:", "-----Original Message-----", ...) ends the text. When
 * that leaves nothing (a reply that only quotes), the whole text is kept rather than an empty comment.
 */
export function newTextOfReply(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept: string[] = [];
  for (const line of lines) {
    if (QUOTE_STARTS.some((start) => start.test(line.trim()))) break;
    if (line.trimStart().startsWith(">")) continue;
    kept.push(line);
  }
  const result = kept.join("\n").trim();
  return result || text.trim();
}

/** Message-IDs as stored: without angle brackets or spaces, lower-cased domain part kept as sent. */
export function messageIds(value: string | string[] | undefined): string[] {
  if (!value) return [];
  const text = Array.isArray(value) ? value.join(" ") : value;
  const found = text.match(/<[^<>\s]{1,500}>/g) ?? [];
  const ids = found.length > 0 ? found.map((id) => id.slice(1, -1)) : text.split(/\s+/).filter(Boolean);
  return ids.filter((id) => id.length <= 500);
}

/** The ticket number a subject names as "[#123]" (Cove puts it in every subject it sends). */
export function subjectTicketNumber(subject: string): number | null {
  const match = /\[#(\d{1,9})\]/.exec(subject);
  return match?.[1] ? Number(match[1]) : null;
}
