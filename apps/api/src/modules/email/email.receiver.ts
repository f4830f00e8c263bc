import type { AttachmentLimits } from "@cove/contract/attachment-limits.ts";
import { INBOUND_DEFER_PER_SENDER_PER_MINUTE, INBOUND_MAX_BYTES } from "@cove/contract/email.ts";
import type { FastifyBaseLogger } from "fastify";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";
import type { Db } from "../../platform/db.ts";
import { organizationBySlug } from "../../platform/organizations.ts";
import { receiveMail } from "./email.inbound.ts";
import { checkSender, type SenderCheckOptions } from "./email.sender-check.ts";

/** A recipient the receiver accepted: the organization and the part after the plus, if any. */
interface Recipient {
  orgId: string;
  tag: string | null;
}

export interface Receiver {
  port: number;
  close(): Promise<void>;
}

const SMTP_ERROR = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The built-in SMTP receiver: accepts mail for "<organization slug>[+tag]@INBOUND_DOMAIN" only (anything else is
 * refused at RCPT, so Cove is never an open relay), at most INBOUND_MAX_BYTES a message, and files each message for
 * each organization it is addressed to. Nothing a message contains can stop it: every failure is answered and logged.
 * "250" means kept: a message it cannot keep now (a flood from one sender, a database error) gets a temporary "451",
 * so the sending server keeps it and tries again.
 */
export async function startReceiver(opts: {
  db: Db;
  domain: string;
  port: number;
  host?: string;
  log: FastifyBaseLogger;
  /** Check SPF, DKIM and DMARC of each message (INBOUND_SENDER_CHECKS); null or absent: no checks. */
  senderCheck?: SenderCheckOptions | null;
  /** What a message's files may be (ATTACHMENT_* configuration); the defaults when absent. */
  attachmentLimits?: AttachmentLimits;
}): Promise<Receiver> {
  const domain = opts.domain.toLowerCase();

  async function resolve(address: SMTPServerAddress): Promise<Recipient | null> {
    const [local, host] = address.address.toLowerCase().split(/@(?=[^@]*$)/);
    if (!local || host !== domain) return null;
    const [slug, ...rest] = local.split("+");
    if (!slug) return null;
    const org = await organizationBySlug(opts.db, slug);
    return org ? { orgId: org.id, tag: rest.join("+") || null } : null;
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    banner: "Cove",
    size: INBOUND_MAX_BYTES,
    logger: false,
    maxClients: 50,
    socketTimeout: 60_000,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= 20) return callback(SMTP_ERROR(452, "Too many recipients"));
      resolve(address)
        .then((recipient) => callback(recipient ? undefined : SMTP_ERROR(550, "No such mailbox here")))
        .catch((err: unknown) => {
          opts.log.error({ err }, "inbound mail: recipient lookup failed");
          callback(SMTP_ERROR(451, "Try again later"));
        });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= INBOUND_MAX_BYTES) chunks.push(chunk);
      });
      stream.on("error", (err) => callback(err));
      stream.on("end", () => {
        if (stream.sizeExceeded || size > INBOUND_MAX_BYTES) {
          return callback(SMTP_ERROR(552, `Message too large (at most ${INBOUND_MAX_BYTES} bytes)`));
        }
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom;
        // MAIL FROM:<> (a delivery report) has no address: the null return path.
        const envelopeFrom = from ? from.address.toLowerCase() || null : null;
        const checked = opts.senderCheck
          ? checkSender(
              raw,
              { ip: session.remoteAddress || null, helo: session.hostNameAppearsAs || null, envelopeFrom },
              opts.senderCheck,
            )
          : Promise.resolve(null);
        // Each organization files a message once, however many of its addresses it was sent to.
        Promise.all([checked, Promise.all(session.envelope.rcptTo.map(resolve))])
          .then(([sender, found]) => {
            if (sender?.reject) {
              opts.log.info({ sender: sender.summary }, "inbound mail refused by its domain's DMARC policy");
              throw SMTP_ERROR(
                550,
                `5.7.1 Refused: ${sender.summary}; the sender's domain asks for such mail to be rejected`,
              );
            }
            const targets = new Map<string, Recipient>();
            for (const r of found) if (r && !targets.has(r.orgId)) targets.set(r.orgId, r);
            return Promise.all(
              [...targets.values()].map((r) =>
                receiveMail(
                  opts.db,
                  r.orgId,
                  { raw, envelopeFrom, tag: r.tag, sender, attachmentLimits: opts.attachmentLimits },
                  { deferAbove: INBOUND_DEFER_PER_SENDER_PER_MINUTE },
                ),
              ),
            );
          })
          .then((outcomes) => {
            opts.log.info({ outcomes: outcomes.map((o) => o.result) }, "inbound mail filed");
            const deferred = outcomes.find((o) => o.result === "deferred");
            // An organization that filed it already finds it again by its Message-ID when it comes back.
            if (deferred) {
              return callback(SMTP_ERROR(451, `4.7.1 ${deferred.reason} Try again later.`));
            }
            callback();
          })
          .catch((err: unknown) => {
            if (err instanceof Error && "responseCode" in err) return callback(err);
            opts.log.error({ err }, "inbound mail could not be filed");
            callback(SMTP_ERROR(451, "Try again later"));
          });
      });
    },
  });
  server.on("error", (err) => opts.log.error({ err }, "inbound SMTP server error"));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : opts.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
