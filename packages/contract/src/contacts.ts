import { z } from "zod";
import { CHAT_SESSION_STATUSES } from "./chat.ts";
import { cursorParam, pageParam } from "./pagination.ts";
import { defineRoute, idParams } from "./routes.ts";
import { dataExportAnswer } from "./settings.ts";
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

/**
 * A customer's data on request (GDPR articles 15, 17 and 20; docs/decisions/2026-11-29-customer-data-requests.md):
 * admins export it as a ZIP, or erase the customer. What an erased customer is called wherever their name was.
 */
export const ERASED_CONTACT_NAME = "Deleted customer";
export const ERASE_CONFIRM_MAX = 320;

/** Erasing a customer: the admin types the customer's email (their name when they have none) to confirm. */
export const eraseContactBody = z.object({
  confirmEmail: z
    .string({ error: "Type the customer's email to confirm" })
    .max(ERASE_CONFIRM_MAX, { error: "Type the customer's email to confirm" }),
});
export type EraseContactBody = z.infer<typeof eraseContactBody>;

/** What erasing a customer removed, and the contact as it now stands (anonymized). */
export const eraseContactAnswer = z.object({
  contact: contactSchema,
  erased: z.object({
    tickets_anonymized: z.number().int(),
    chats: z.number().int(),
    files: z.number().int(),
    surveys: z.number().int(),
    sessions: z.number().int(),
  }),
});
export type EraseContactAnswer = z.infer<typeof eraseContactAnswer>;

export const ERASE_MISMATCH_EMAIL = "The email you typed does not match this customer's email.";
export const ERASE_MISMATCH_NAME = "The name you typed does not match this customer's name.";
export const ALREADY_ERASED = "This customer has already been erased.";
export const DEMO_NOT_ERASABLE = "The demo organization's customers cannot be erased.";

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["contacts"];

/**
 * The organization's customers, for staff (contacts never reach these routes: they admit staff only). An id that is
 * not one of the organization's, malformed ones included, is simply not found.
 */
export const contactsApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/contacts",
    summary: "The organization's customers, newest first; search by name, email or company",
    tags,
    access: "authenticated",
    query: contactListQuery,
    answers: { 200: contactListAnswer },
  }),
  get: defineRoute({
    method: "GET",
    path: "/api/contacts/:id",
    summary: "A customer with their tickets",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: contactAnswer },
  }),
  ofTicket: defineRoute({
    method: "GET",
    path: "/api/tickets/:id/contact",
    summary: "A ticket's requester as a customer, with their other tickets",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: ticketContactAnswer },
  }),
};

/**
 * A customer's data on request (admins): export it (a ZIP made in the background, like the organization's export) or
 * erase the customer. Starting an export and erasing work while the organization is read-only.
 */
export const privacyApi = {
  startExport: defineRoute({
    method: "POST",
    path: "/api/contacts/:id/export",
    summary: "Start an export of a customer's data (or answer the one under way)",
    tags,
    access: "admin",
    params: idParams,
    answers: { 202: dataExportAnswer },
  }),
  latestExport: defineRoute({
    method: "GET",
    path: "/api/contacts/:id/export",
    summary: "The latest export of a customer's data and its progress",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: dataExportAnswer },
  }),
  downloadExport: defineRoute({
    method: "GET",
    path: "/api/contacts/:id/export/:exportId/download",
    summary: "Download a finished export of a customer's data (a ZIP of JSON files and their files)",
    tags,
    access: "admin",
    params: z.object({ id: z.string(), exportId: z.string() }),
    answers: { 200: z.unknown().describe("A ZIP file (application/zip)") },
  }),
  erase: defineRoute({
    method: "POST",
    path: "/api/contacts/:id/erase",
    summary: "Erase a customer: their chats, files, surveys and sessions go; their name leaves their tickets",
    tags,
    access: "admin",
    params: idParams,
    body: eraseContactBody,
    answers: { 200: eraseContactAnswer },
    /** Already erased (409); the typed email or name does not match (422). */
    errors: ["CONFLICT", "CONFIRMATION_MISMATCH"],
  }),
};
