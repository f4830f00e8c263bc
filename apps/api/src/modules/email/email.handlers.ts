import type { FastifyInstance } from "fastify";
import { type EmailChannel, mailAcknowledgement, mailReply, type OutboundDeps } from "./email.outbound.ts";

export interface EmailChannelOptions {
  /** INBOUND_DOMAIN; null: no inbound address (replies cannot come back by email). */
  inboundDomain: string | null;
  /** Retries of an outbound email after its first attempt (default 5), from retryDelaySeconds (default 5) doubling. */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/**
 * The email channel's consumers: a public reply and the acknowledgement of a ticket opened by email are sent by
 * durable handlers (the job queue retries them; a failure never reaches the request), and a delivery's outcome
 * reaches the ticket's viewers.
 */
export function registerEmailChannel(
  app: FastifyInstance,
  options: EmailChannelOptions,
  publicUrl: string,
): EmailChannel {
  const channel: EmailChannel = {
    inboundDomain: options.inboundDomain?.toLowerCase() ?? null,
    messageDomain: options.inboundDomain?.toLowerCase() ?? new URL(publicUrl).hostname,
  };
  const deps = (): OutboundDeps => ({ db: app.db, mailer: app.mailer, channel, log: app.log, publicUrl });
  const retry = { retryLimit: options.retryLimit ?? 5, retryDelaySeconds: options.retryDelaySeconds ?? 5 };
  app.events.onCommitted(
    "email-reply",
    ["comment.added"],
    (event, attempt) => mailReply(deps(), event, attempt),
    retry,
  );
  app.events.onCommitted(
    "email-acknowledgement",
    ["email.received"],
    (event, attempt) => mailAcknowledgement(deps(), event, attempt),
    retry,
  );
  app.realtime.route(["email.delivery_changed"], (event) => [
    { topic: `ticket:${event.data.ticket_id}`, kinds: ["staff"] },
  ]);
  return channel;
}
