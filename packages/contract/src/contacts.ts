import { z } from "zod";
import { CHAT_SESSION_STATUSES } from "./chat.ts";
import { cursorParam, pageParam } from "./pagination.ts";
import { paginationSchema, TICKET_PRIORITIES, TICKET_STATUSES } from "./tickets.ts";

/** An organization's customers as staff see them (spec: customer; docs/product.md: contacts). */
export const CONTACT_PAGE_SIZE = 25;
export const CONTACT_SEARCH_MAX = 200;

export const contactSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  created_at: z.string(),
  ticket_count: z.number().int(),
  /** When their newest ticket last changed, or null with no tickets. */
  last_ticket_at: z.string().nullable(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactListQuery = z.object({
  page: pageParam,
  cursor: cursorParam,
  search: z
    .string()
    .trim()
    .max(CONTACT_SEARCH_MAX, `Search must be at most ${CONTACT_SEARCH_MAX} characters`)
    .optional(),
});
export type ContactListQuery = z.input<typeof contactListQuery>;

export const contactListAnswer = z.object({ contacts: z.array(contactSchema), pagination: paginationSchema });
export type ContactListAnswer = z.infer<typeof contactListAnswer>;

/** A contact's ticket in a list: enough to recognise it and open it. */
export const contactTicketSchema = z.object({
  id: z.uuid(),
  ticket_number: z.number().int(),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(TICKET_PRIORITIES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ContactTicket = z.infer<typeof contactTicketSchema>;

/** At most this many of a contact's tickets are listed with it (newest first); ticket_count says how many there are. */
export const CONTACT_TICKETS_MAX = 50;

/** One of a contact's live chats, as the contact's page lists them (the newest first). */
export const contactChatSchema = z.object({
  id: z.uuid(),
  status: z.enum(CHAT_SESSION_STATUSES),
  started_at: z.string(),
  last_message: z.string().nullable(),
  resolved_by_ai: z.boolean(),
});
export type ContactChat = z.infer<typeof contactChatSchema>;

export const contactAnswer = z.object({
  contact: contactSchema,
  tickets: z.array(contactTicketSchema),
  chats: z.array(contactChatSchema),
});
export type ContactAnswer = z.infer<typeof contactAnswer>;

/** A ticket's requester as a contact, with their other tickets (null: the ticket has no contact). */
export const ticketContactAnswer = z.object({
  contact: contactSchema.nullable(),
  other_tickets: z.array(contactTicketSchema),
});
export type TicketContactAnswer = z.infer<typeof ticketContactAnswer>;

/** How a contact signed in: the portal (a magic link) or the chat widget (a visitor). */
export const CONTACT_SESSION_KINDS = ["portal", "visitor"] as const;
export type ContactSessionKind = (typeof CONTACT_SESSION_KINDS)[number];
