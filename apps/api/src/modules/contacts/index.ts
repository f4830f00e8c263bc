// The contacts module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { contactRoutes } from "./contacts.routes.ts";

export { type ContactRecords, getContact } from "./contacts.queries.ts";
export {
  anonymizeContact,
  contactHasEmail,
  endContactSessions,
  findContactCard,
  findOrCreateContact,
  lockContactProfile,
  renameContact,
  startContactSession,
} from "./contacts.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof contactRoutes>[1]): Promise<void> {
  await app.register(contactRoutes, opts);
}
