// What the tickets feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { useTicketList, useTicketStats } from "./api/tickets.queries.ts";
export { NewTicketDetails } from "./components/new-ticket-details.tsx";
export { PriorityBadge, StatusBadge } from "./components/ticket-badges.tsx";
export {
  formatDate,
  formatDateTime,
  formatRelative,
  PRIORITY_LABELS,
  STATUS_LABELS,
} from "./components/ticket-format.ts";
