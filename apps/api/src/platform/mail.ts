import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { brandPalette, DEFAULT_BRAND_COLOR } from "@cove/contract/brand-colors.ts";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's display name (an organization's); the address stays MAIL_FROM's. */
  fromName?: string;
  replyTo?: string;
  /** Threading (the email channel): ids without angle brackets. */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  /** The envelope sender (MAIL FROM), where bounces go; MAIL_FROM's address when absent. */
  envelopeFrom?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Outbound mail. With SMTP_URL it goes to that server; without one, each message is written as an .eml file
 * under DATA_DIR/outbox and the log says which file, so a local install can still follow a reset link: it is in the
 * file. The log never holds the links themselves, which carry single-use tokens (docs/engineering.md, "Security").
 */
export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
}

/** What nodemailer gets for a message: MAIL_FROM, under the message's own display name when it has one. */
function envelopeOf(from: string, m: MailMessage) {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const wrap = (id: string) => `<${id}>`;
  return {
    from: m.fromName ? { name: m.fromName, address } : from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    replyTo: m.replyTo,
    messageId: m.messageId ? wrap(m.messageId) : undefined,
    inReplyTo: m.inReplyTo ? wrap(m.inReplyTo) : undefined,
    references: m.references?.map(wrap),
    headers: m.headers,
    envelope: m.envelopeFrom ? { from: m.envelopeFrom, to: m.to } : undefined,
    attachments: m.attachments,
  };
}

/** What the mailer counts (platform/metrics.ts): each message sent, each attempt that failed. */
export interface MailCounts {
  mailSent(): void;
  mailFailed(): void;
}

export function createMailer(opts: MailConfig, log: FastifyBaseLogger, counts?: MailCounts): Mailer {
  const mailer = transportMailer(opts, log);
  if (!counts) return mailer;
  return {
    async send(m) {
      try {
        await mailer.send(m);
      } catch (err) {
        counts.mailFailed();
        throw err;
      }
      counts.mailSent();
    },
    close: () => mailer.close(),
  };
}

function transportMailer(opts: MailConfig, log: FastifyBaseLogger): Mailer {
  if (opts.smtpUrl) {
    // A send ends within 40 s whatever the server does, before its job expires (jobs.ts: MAIL_QUEUE).
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send(m) {
        await transport.sendMail(envelopeOf(opts.from, m));
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(m) {
      const info = await transport.sendMail(envelopeOf(opts.from, m));
      await mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(opts.outboxDir, name);
      // Written aside, then renamed: whoever watches the outbox (a person, a test) never reads half a message.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
      log.info(
        { subject: m.subject, file },
        "mail written to the outbox (no SMTP_URL set): open the file for its links",
      );
    },
    close: () => transport.close(),
  };
}

declare module "fastify" {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** For every value interpolated into an email's HTML part: names and organization names are typed by people. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Who a message speaks for: an organization to its customers (its name, brand colour and logo lead the message), or
 * Cove itself to staff (invitations, password resets). color is used only when it is a plain #rrggbb, logoUrl only
 * when it is an absolute http(s) address: neither can carry anything else into the HTML.
 */
export interface MailBrand {
  name: string;
  color: string;
  /** An absolute address of the logo image (Cove's public logo URL); null: the name alone. */
  logoUrl: string | null;
}

/** Cove's own messages to staff. */
export const COVE_MAIL_BRAND: MailBrand = { name: "Cove", color: DEFAULT_BRAND_COLOR, logoUrl: null };

/** An organization's brand for its customers' mail: its logo's path on Cove made absolute against PUBLIC_URL. */
export function mailBrand(
  brand: { name: string; color: string; logoPath: string | null },
  publicUrl: string,
): MailBrand {
  return { name: brand.name, color: brand.color, logoUrl: brand.logoPath ? `${publicUrl}${brand.logoPath}` : null };
}

function safeImageUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** What the HTML part of a message holds: paragraphs of plain text (line breaks kept), a button, closing notes. */
export interface MailBody {
  brand: MailBrand;
  /** Plain text, one paragraph each; escaped, and its line breaks kept. */
  paragraphs: string[];
  action?: { label: string; url: string };
  outro?: string[];
  /** A signature under the message (the organization's, from Email Settings), in smaller grey text. */
  signature?: string;
}

/**
 * The HTML part: a card led by the brand's colour band, with its logo and name (text on it black or white, whichever
 * reads better), the words, and a button in the brand colour. Every value is escaped; styles are inline because mail
 * clients drop style sheets.
 */
export function mailHtml(body: MailBody): string {
  const { color, ink, text: linkColor } = brandPalette(body.brand.color);
  const name = escapeHtml(body.brand.name);
  const logo = safeImageUrl(body.brand.logoUrl);
  const lines = (p: string) => escapeHtml(p).replace(/\r?\n/g, "<br>");
  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#334155">${lines(p)}</p>`;
  const action = body.action;
  const url = action ? escapeHtml(action.url) : "";
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#f8fafc;font-family:Helvetica,Arial,sans-serif">',
    '<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;overflow:hidden">',
    `<div data-brand="header" style="background-color:${color};color:${ink};padding:16px 32px">`,
    logo
      ? `<img src="${escapeHtml(logo)}" alt="${name}" height="40" style="display:inline-block;vertical-align:middle;height:40px;max-width:160px;border:0;border-radius:6px;background:#ffffff;padding:4px;margin-right:12px">`
      : "",
    `<span style="display:inline-block;vertical-align:middle;font-size:18px;font-weight:600;color:${ink}">${name}</span>`,
    "</div>",
    '<div style="padding:32px">',
    ...body.paragraphs.map(paragraph),
    ...(action
      ? [
          `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;background-color:${color};color:${ink};text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(action.label)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#64748b">If the button does not work, copy this link into your browser:<br><a href="${url}" style="color:${linkColor};word-break:break-all">${url}</a></p>`,
        ]
      : []),
    ...(body.outro ?? []).map(paragraph),
    ...(body.signature
      ? [`<p style="margin:24px 0 0;font-size:13px;line-height:1.5;color:#64748b">${lines(body.signature)}</p>`]
      : []),
    "</div></div></body></html>",
  ].join("\n");
}

/** A transactional message: a few paragraphs, one button (the link), and a closing note. */
export interface MailContent {
  to: string;
  subject: string;
  /** Plain text, one paragraph each; escaped for the HTML part. */
  intro: string[];
  action: { label: string; url: string };
  outro: string[];
  /** Whose message it is: an organization's to its customers; Cove's own when absent. */
  brand?: MailBrand;
}

/** Builds both parts of a message from the same words: plain text for every client, HTML for those that show it. */
export function composeMail(content: MailContent): MailMessage {
  const { intro, action, outro } = content;
  const text = [...intro, `${action.label}: ${action.url}`, ...outro].join("\n\n");
  const html = mailHtml({ brand: content.brand ?? COVE_MAIL_BRAND, paragraphs: intro, action, outro });
  return { to: content.to, subject: content.subject, text, html };
}
