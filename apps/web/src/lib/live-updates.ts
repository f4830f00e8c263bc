import type { QueryClient, QueryKey } from "@tanstack/react-query";
import {
  chatKeys,
  contactKeys,
  csatStatsKey,
  kbKey,
  notificationsKey,
  organizationStatsKey,
  teamKey,
  ticketKeys,
} from "./query-keys.ts";
import type { LiveEvent } from "./realtime.ts";

/**
 * What each event makes out of date on screen. Events carry ids, not rows: the queries they touch are invalidated,
 * and TanStack Query refetches the ones a screen shows now (the others when next shown).
 */
export function staleQueries(event: LiveEvent): QueryKey[] {
  const ticketId = typeof event.data.ticket_id === "string" ? event.data.ticket_id : null;
  switch (event.type) {
    case "ticket.created":
      // A new ticket may bring a new customer, and adds to a customer's tickets.
      return [ticketKeys.lists(), ticketKeys.stats(), organizationStatsKey, contactKeys.all];
    case "ticket.updated":
    case "ticket.assigned":
    case "ticket.status_changed":
    case "comment.added":
      return [
        ticketKeys.lists(),
        ticketKeys.stats(),
        ...(ticketId ? [ticketKeys.detail(ticketId)] : []),
        // A customer's tickets show their status and dates.
        contactKeys.all,
        ...(event.type === "ticket.status_changed" ? [csatStatsKey] : []),
      ];
    case "csat.rated":
      return [csatStatsKey];
    case "email.delivery_changed":
      // A reply's email was sent or failed: the ticket shows it on the reply.
      return ticketId ? [ticketKeys.detail(ticketId)] : [];
    case "member.invited":
    case "member.joined":
    case "member.changed":
    case "member.removed":
      // Names show in ticket lists and details; the dashboard counts active members.
      return [teamKey, organizationStatsKey, ticketKeys.all];
    case "notification.created":
    case "notification.read":
      return [notificationsKey];
    case "chat.session_started":
    case "chat.handed_off":
      return [chatKeys.sessions(), chatKeys.stats()];
    case "chat.message_added":
    case "chat.session_changed": {
      const sessionId = typeof event.data.session_id === "string" ? event.data.session_id : null;
      return [chatKeys.sessions(), chatKeys.stats(), ...(sessionId ? [chatKeys.messages(sessionId)] : [])];
    }
    case "kb.article_changed":
    case "kb.category_changed":
      return [kbKey];
    default:
      return [];
  }
}

/**
 * Applies events to the query cache, a batch at a time: a burst of changes (an import, a rule touching many tickets)
 * costs one refetch per query, not one per event. The same event can arrive on two topics; it counts once.
 */
export function createLiveUpdates(queryClient: QueryClient, delayMs = 100) {
  const seen = new Set<number>();
  let pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    const keys = [...pending.values()];
    pending = new Map();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };

  return {
    apply(event: LiveEvent) {
      if (seen.has(event.id)) return;
      seen.add(event.id);
      if (seen.size > 500) seen.delete(seen.values().next().value as number);
      for (const key of staleQueries(event)) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, delayMs);
    },
    /** After a reconnect: everything on screen may be out of date. */
    refetchAll() {
      void queryClient.invalidateQueries();
    },
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}
