// The email module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { commentEmailStatus } from "./comment-email-status.ts";
export type { EmailChannelOptions } from "./email.handlers.ts";
export { forgetMailAddress } from "./email.privacy.ts";
export { emailConnected } from "./email.queries.ts";
export { startReceiver } from "./email.receiver.ts";
export { emailRoutes } from "./email.routes.ts";
export { mailboxRoutes } from "./mailbox.routes.ts";
