// The contacts module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { type ContactRecords, getContact } from "./contacts.queries.ts";
export { contactRoutes } from "./contacts.routes.ts";
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
