// The tickets module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { ticketRoutes } from "./tickets.routes.ts";

export { type CustomerTicketRow, customerTicket, listCustomerTickets, publicComments } from "./tickets.customer.ts";
export {
  fillFirstResponses,
  findDueTimes,
  noteFirstResponse,
  openTicketsAfter,
  openTicketsCreatedBy,
  refreshBusinessMinutes,
  type TicketWait,
  ticketNumberOf,
  ticketsNearDue,
  ticketsWaiting,
  writeDueTimes,
} from "./tickets.due.ts";
export { connectTicketParts } from "./tickets.parts.ts";
export { anonymizeCustomerInTickets, customerTickets } from "./tickets.privacy.ts";
export {
  contactIdOfTicket,
  contactLastTicketAt,
  contactTicketCount,
  findComment,
  findTicketBasics,
  findTicketRow,
  firstTeamReplyAt,
  isPublicComment,
  listComments,
  type TicketRow,
  ticketExistsInOrg,
  ticketsAnswerableBy,
  ticketsCreatedPerDay,
  ticketsOfContact,
  toTicketSummary,
} from "./tickets.queries.ts";
export {
  backlogParts,
  type ExportCursor,
  filteredTicketIds,
  type ReportSpan,
  repliesByMember,
  type TicketExportRow,
  type TicketFigure,
  type TicketReportFilter,
  ticketExportPage,
  ticketFigures,
  ticketSubjects,
} from "./tickets.reports.ts";
export {
  addChannelReply,
  addComment,
  changeTicket,
  deleteTicketsOfContact,
  insertPastTicket,
  openTicket,
  systemActorName,
} from "./tickets.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(ticketRoutes);
}
