// The email module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { emailRoutes } from "./email.routes.ts";
import { mailboxRoutes } from "./mailbox.routes.ts";

export { commentEmailStatus } from "./comment-email-status.ts";
export type { EmailChannelOptions } from "./email.handlers.ts";
export { forgetMailAddress } from "./email.privacy.ts";
export { emailConnected } from "./email.queries.ts";
export { startReceiver } from "./email.receiver.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(
  app: FastifyInstance,
  opts: { channel: Parameters<typeof emailRoutes>[1]; mailboxes: Parameters<typeof mailboxRoutes>[1] },
): Promise<void> {
  await app.register(emailRoutes, opts.channel);
  await app.register(mailboxRoutes, opts.mailboxes);
}
