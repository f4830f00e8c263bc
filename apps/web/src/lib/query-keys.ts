/**
 * The query keys that more than one part of the app reads or refreshes: the realtime updates (lib/live-updates.ts),
 * the dashboard and the screens that own the data. Each family starts with one word, so one invalidation can reach
 * all of it.
 */

/** GET /tickets (lists), /tickets/{id}, /tickets/stats/overview. List parameters are the list page's own. */
export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (params: object) => [...ticketKeys.lists(), params] as const,
  detail: (id: string) => [...ticketKeys.all, "detail", id] as const,
  stats: () => [...ticketKeys.all, "stats"] as const,
};

/** GET /users: the team screen and the assignee pickers share one cached answer. */
export const teamKey = ["users", "list"] as const;

/** GET /organizations/stats: the dashboard's team figure and 30-day trend. */
export const organizationStatsKey = ["organizations", "stats"] as const;

/** GET /notifications: the bell. */
export const notificationsKey = ["notifications"] as const;

/** Every staff knowledge-base query. */
export const kbKey = ["kb"] as const;

/** GET /contacts (lists), /contacts/{id} and a ticket's requester panel (/tickets/{id}/contact). */
export const contactKeys = {
  all: ["contacts"] as const,
  list: (params: object) => [...contactKeys.all, "list", params] as const,
  detail: (id: string) => [...contactKeys.all, "detail", id] as const,
  ofTicket: (ticketId: string) => [...contactKeys.all, "ticket", ticketId] as const,
};

/** GET /csat/stats: the dashboard's satisfaction card. */
export const csatStatsKey = ["csat", "stats"] as const;

/** GET /chat/sessions, /chat/sessions/{id}/messages and /chat/stats: the live chat screen. */
export const chatKeys = {
  all: ["chat"] as const,
  sessions: () => [...chatKeys.all, "sessions"] as const,
  messages: (id: string) => [...chatKeys.all, "messages", id] as const,
  stats: () => [...chatKeys.all, "stats"] as const,
};

/** GET /reports: one answer per query (range, grouping, filters). */
export const reportKeys = {
  all: ["reports"] as const,
  report: (params: object) => [...reportKeys.all, "report", params] as const,
};
