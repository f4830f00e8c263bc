import type { DomainEvent, EventType } from "@cove/contract/events.ts";
import type { DeliveryEvent } from "@cove/contract/webhooks.ts";
import { sql } from "drizzle-orm";
import { type Queryable, queryRows, type Tx } from "../../platform/db.ts";
import { selectMessages, selectSession } from "../chat/index.ts";
import { findContactCard } from "../contacts/index.ts";
import { ratingOfTicket } from "../csat/index.ts";
import { findTicketRow, listComments, toTicketSummary } from "../tickets/index.ts";
import { BODY_MAX } from "./webhooks.http.ts";

/**
 * What a delivery says: { id, type, created_at, organization: { slug }, data }, data holding the objects as the API
 * answers them (a ticket as in the ticket list, a comment as in a ticket's detail, a chat as in the chat list...),
 * read in the transaction of the change, so each delivery tells the state that event left.
 */

export interface DeliveryPayload {
  id: string;
  type: DeliveryEvent;
  created_at: string;
  organization: { slug: string };
  data: Record<string, unknown>;
}

/** The delivery event a domain event is, if any. ticket.status_changed is ticket.solved when it ends in solved. */
export function deliveryEventOf(event: DomainEvent): DeliveryEvent | null {
  switch (event.type) {
    case "ticket.created":
    case "ticket.updated":
    case "comment.added":
    case "chat.handed_off":
    case "contact.created":
    case "ticket.sla_breached":
      return event.type;
    case "ticket.status_changed":
      return event.data.to === "solved" ? "ticket.solved" : null;
    case "chat.session_started":
      return "chat.started";
    case "chat.message_added":
      return "chat.message";
    case "csat.rated":
      return "csat.answered";
    default:
      return null;
  }
}

/** The domain events webhooks listen to. */
export const SOURCE_EVENTS: EventType[] = [
  "ticket.created",
  "ticket.updated",
  "ticket.status_changed",
  "comment.added",
  "chat.session_started",
  "chat.message_added",
  "chat.handed_off",
  "contact.created",
  "csat.rated",
  "ticket.sla_breached",
];

async function ticketOf(db: Queryable, orgId: string, id: string) {
  const row = await findTicketRow(db, orgId, id);
  return row ? toTicketSummary(row) : null;
}

/** The data of a delivery and the key it is ordered by (its ticket or chat); null when its object is gone. */
export async function deliveryData(
  db: Tx,
  orgId: string,
  event: DomainEvent,
): Promise<{ data: Record<string, unknown>; orderingKey: string | null } | null> {
  switch (event.type) {
    case "ticket.created":
    case "ticket.status_changed":
    case "ticket.sla_breached":
    case "ticket.updated":
    case "csat.rated":
    case "comment.added": {
      const ticketId = event.data.ticket_id;
      const ticket = await ticketOf(db, orgId, ticketId);
      if (!ticket) return null;
      const data: Record<string, unknown> = { ticket };
      if (event.type === "ticket.updated") data.changes = event.data.changes;
      if (event.type === "ticket.sla_breached") data.kind = event.data.kind;
      if (event.type === "csat.rated") data.rating = await ratingOfTicket(db, orgId, ticketId);
      if (event.type === "comment.added") {
        const comments = await listComments(db, orgId, ticketId);
        const comment = comments.find((c) => c.id === event.data.comment_id);
        if (!comment) return null;
        data.comment = comment;
      }
      return { data, orderingKey: `ticket:${ticketId}` };
    }
    case "chat.session_started":
    case "chat.message_added":
    case "chat.handed_off": {
      const chat = await selectSession({ orgId, db }, event.data.session_id);
      if (!chat) return null;
      const data: Record<string, unknown> = { chat };
      if (event.type === "chat.handed_off") data.reason = event.data.reason;
      if (event.type === "chat.message_added") {
        const messages = await selectMessages(db, orgId, chat.id, 20);
        const message = messages.find((m) => m.id === event.data.message_id);
        if (!message) return null;
        data.message = message;
      }
      return { data, orderingKey: `chat:${chat.id}` };
    }
    case "contact.created": {
      const contact = await findContactCard(db, orgId, event.data.contact_id);
      return contact ? { data: { contact }, orderingKey: null } : null;
    }
    default:
      return null;
  }
}

export async function organizationSlug(db: Queryable, orgId: string): Promise<string> {
  const [row] = await queryRows<{ slug: string }>(db, sql`select slug from organizations where id = ${orgId}`);
  return row?.slug ?? "";
}

/** The payload as sent, its data cut to its objects' ids when the whole would pass the body cap. */
export function capped(payload: DeliveryPayload): DeliveryPayload {
  if (Buffer.byteLength(JSON.stringify(payload)) <= BODY_MAX - 1024) return payload;
  const ids: Record<string, unknown> = { truncated: true };
  for (const [key, value] of Object.entries(payload.data)) {
    if (value && typeof value === "object" && "id" in value) ids[key] = { id: (value as { id: unknown }).id };
  }
  return { ...payload, data: ids };
}
