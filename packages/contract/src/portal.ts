import { z } from "zod";
import { attachmentIds, attachmentSchema } from "./attachments.ts";
import { emailField, messageAnswer, requiredText } from "./auth.ts";
import { rateBody, satisfactionAnswer, satisfactionSchema } from "./csat.ts";
import { cursorParam, pageParam } from "./pagination.ts";
import { defineRoute, idParams } from "./routes.ts";
import {
  createCommentBody,
  createTicketBody,
  paginationSchema,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
} from "./tickets.ts";

/**
 * The customer portal (docs/product.md: `/portal/{org-slug}`): an organization's customers sign in with an emailed magic
 * link and see, open and answer their own tickets. `/customer-portal` is the demo entry: the demo organization's portal
 * signed in as a fixed demo customer.
 */

/** A sign-in link works once, for this many minutes. */
export const PORTAL_LINK_MINUTES = 15;
/** A portal sign-in lasts this many days (signing out ends it at once). */
export const PORTAL_SESSION_DAYS = 30;
/** Sign-in links one email may be sent per organization, and one address may ask for, in PORTAL_LINK_MINUTES. */
export const PORTAL_LINKS_PER_EMAIL = 5;
export const PORTAL_LINKS_PER_ADDRESS = 20;
export const PORTAL_TICKET_PAGE_SIZE = 25;

export const portalPath = (orgSlug: string) => `/portal/${encodeURIComponent(orgSlug)}`;
export const DEMO_PORTAL_PATH = "/customer-portal";

/** The answer to a sign-in link request: the same whether or not the email is known. */
export const portalLinkMessage = (email: string) =>
  `Check your inbox: we sent a sign-in link to ${email}. It works once, within ${PORTAL_LINK_MINUTES} minutes.`;

export const brandingSchema = z.object({
  /** An image URL, or null for the organization's initial. */
  logo_url: z.string().nullable(),
  /** The accent colour, #rrggbb. */
  color: z.string(),
});
export type Branding = z.infer<typeof brandingSchema>;

export const portalOrganization = z.object({ name: z.string(), slug: z.string(), branding: brandingSchema });
export type PortalOrganization = z.infer<typeof portalOrganization>;
export const portalInfoAnswer = z.object({ organization: portalOrganization });
export type PortalInfoAnswer = z.infer<typeof portalInfoAnswer>;

export const signInLinkBody = z.object({ email: emailField });
export type SignInLinkBody = z.input<typeof signInLinkBody>;
export const signInLinkAnswer = z.object({ message: z.string() });

export const portalSessionBody = z.object({
  token: z.string({ error: "The sign-in link is incomplete" }).trim().min(20).max(200),
});

export const portalCustomer = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  company: z.string().nullable(),
});
export type PortalCustomer = z.infer<typeof portalCustomer>;

export const portalSessionAnswer = z.object({
  /** The customer's bearer token (starts with "ct."): kept by the portal, never mixed with a staff session. */
  token: z.string(),
  customer: portalCustomer,
  organization: portalOrganization,
});
export type PortalSessionAnswer = z.infer<typeof portalSessionAnswer>;

export const portalMeAnswer = z.object({ customer: portalCustomer, organization: portalOrganization });
export type PortalMeAnswer = z.infer<typeof portalMeAnswer>;

export const updatePortalMeBody = z.object({
  name: requiredText("Name", 120),
  company: z
    .string()
    .trim()
    .max(120, "Company must be at most 120 characters")
    .refine((s) => !s.includes("\u0000"), "Company contains an invalid character")
    .nullish()
    .transform((s) => s || null),
});
export type UpdatePortalMeBody = z.input<typeof updatePortalMeBody>;

/** A ticket as its customer sees it (docs/product.md, "Records": customer ticket), with its number. */
export const customerTicketSchema = z.object({
  id: z.uuid(),
  ticket_number: z.number().int(),
  subject: z.string(),
  description: z.string(),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(TICKET_PRIORITIES),
  created_at: z.string(),
  updated_at: z.string(),
  /** Public replies only: internal notes are never counted. */
  comment_count: z.number().int(),
});
export type CustomerTicket = z.infer<typeof customerTicketSchema>;

export const customerTicketListQuery = z.object({
  page: pageParam,
  cursor: cursorParam,
});
export const customerTicketListAnswer = z.object({
  tickets: z.array(customerTicketSchema),
  pagination: paginationSchema,
});
export type CustomerTicketListAnswer = z.infer<typeof customerTicketListAnswer>;

/** A public reply as the customer sees it: who wrote it (the customer or the support team), never an email address. */
export const customerCommentSchema = z.object({
  id: z.uuid(),
  body: z.string(),
  author_name: z.string(),
  from_customer: z.boolean(),
  created_at: z.string(),
});
export type CustomerComment = z.infer<typeof customerCommentSchema>;

export const customerTicketDetailSchema = customerTicketSchema.extend({
  comments: z.array(customerCommentSchema),
  /** The satisfaction survey once the ticket has been solved, else null. */
  satisfaction: satisfactionSchema.nullable(),
  /** The files of the public conversation (comment_id null: the first message); never an internal note's. */
  attachments: z.array(attachmentSchema),
});
export type CustomerTicketDetail = z.infer<typeof customerTicketDetailSchema>;
export const customerTicketAnswer = z.object({ ticket: customerTicketDetailSchema });

/** Subject and description required. */
export const createPortalTicketBody = z.object({
  subject: createTicketBody.shape.subject,
  description: createTicketBody.shape.description,
  priority: createTicketBody.shape.priority,
  /** Files uploaded for it (POST /api/portal/attachments). */
  attachment_ids: attachmentIds.optional(),
});
export type CreatePortalTicketBody = z.input<typeof createPortalTicketBody>;

export const portalReplyBody = z.object({
  body: createCommentBody.shape.body,
  /** Files uploaded for it (POST /api/portal/attachments). */
  attachment_ids: attachmentIds.optional(),
});
export type PortalReplyBody = z.input<typeof portalReplyBody>;
export const customerCommentAnswer = z.object({ comment: customerCommentSchema });

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["customer portal"];
const orgParams = z.object({ orgSlug: z.string().max(200) });
// Any text: an id that is not one of the customer's tickets or its files, malformed ones included, is not found.
const fileParams = z.object({ id: z.string(), attachmentId: z.string() });

/**
 * The customer portal (docs/decisions/2026-11-25-customer-portal.md). Public routes know the organization from its
 * slug (/api/public/{org-slug}/portal/...); signed-in ones from the customer's token (/api/portal/...), which they
 * alone admit: staff tokens are refused by them, as contacts are by staff routes.
 */
export const portalApi = {
  info: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/portal",
    summary: "A portal's organization: its name and branding",
    tags,
    access: "public",
    params: orgParams,
    answers: { 200: portalInfoAnswer },
  }),
  signInLink: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/portal/sign-in-link",
    summary: "Email a single-use sign-in link (the same answer whether or not the email is known; throttled)",
    tags,
    access: "public",
    params: orgParams,
    body: signInLinkBody,
    answers: { 200: signInLinkAnswer },
    // Too many links asked for the email or from the address (PORTAL_LINKS_PER_EMAIL, PORTAL_LINKS_PER_ADDRESS).
    errors: ["RATE_LIMITED"],
  }),
  session: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/portal/session",
    summary: "Sign in with a sign-in link's token (it works once)",
    tags,
    access: "public",
    params: orgParams,
    body: portalSessionBody,
    answers: { 200: portalSessionAnswer },
    // A link used already, expired, or of no one.
    errors: ["INVALID_TOKEN"],
  }),
  demoSession: defineRoute({
    method: "POST",
    path: "/api/portal/demo-session",
    summary: "Sign in to the demo organization's portal as its demo customer (/customer-portal)",
    tags,
    access: "public",
    answers: { 200: portalSessionAnswer },
    // The server has no demo organization.
    errors: ["NOT_FOUND"],
  }),
  me: defineRoute({
    method: "GET",
    path: "/api/portal/me",
    summary: "The signed-in customer",
    tags,
    access: "authenticated",
    actors: ["contact"],
    answers: { 200: portalMeAnswer },
  }),
  updateMe: defineRoute({
    method: "PUT",
    path: "/api/portal/me",
    summary: "Change your name and company",
    tags,
    access: "authenticated",
    actors: ["contact"],
    body: updatePortalMeBody,
    answers: { 200: portalMeAnswer },
  }),
  signOut: defineRoute({
    method: "POST",
    path: "/api/portal/sign-out",
    summary: "Sign out: ends this session",
    tags,
    access: "authenticated",
    actors: ["contact"],
    answers: { 200: messageAnswer },
  }),
  tickets: defineRoute({
    method: "GET",
    path: "/api/portal/tickets",
    summary: "Your tickets, most recently updated first",
    tags,
    access: "authenticated",
    actors: ["contact"],
    query: customerTicketListQuery,
    answers: { 200: customerTicketListAnswer },
  }),
  createTicket: defineRoute({
    method: "POST",
    path: "/api/portal/tickets",
    summary: "Submit a ticket (it starts open)",
    tags,
    access: "authenticated",
    actors: ["contact"],
    body: createPortalTicketBody,
    answers: { 201: customerTicketAnswer },
  }),
  ticket: defineRoute({
    method: "GET",
    path: "/api/portal/tickets/:id",
    summary: "One of your tickets with its public conversation",
    tags,
    access: "authenticated",
    actors: ["contact"],
    params: idParams,
    answers: { 200: customerTicketAnswer },
  }),
  reply: defineRoute({
    method: "POST",
    path: "/api/portal/tickets/:id/comments",
    summary: "Reply (a solved or pending ticket opens again)",
    tags,
    access: "authenticated",
    actors: ["contact"],
    params: idParams,
    body: portalReplyBody,
    answers: { 201: customerCommentAnswer },
    // A closed ticket can no longer be answered.
    errors: ["CONFLICT"],
  }),
  rate: defineRoute({
    method: "PUT",
    path: "/api/portal/tickets/:id/satisfaction",
    summary: "Rate a solved ticket: good or bad, with an optional comment (changeable for 7 days)",
    tags,
    access: "authenticated",
    actors: ["contact"],
    params: idParams,
    body: rateBody,
    answers: { 200: satisfactionAnswer },
    // The ticket was reopened, or the survey has closed.
    errors: ["CONFLICT"],
  }),
  file: defineRoute({
    method: "GET",
    path: "/api/portal/tickets/:id/attachments/:attachmentId",
    summary: "A file of your ticket's conversation: shown inline when a safe image, else a download",
    tags,
    access: "authenticated",
    actors: ["contact"],
    params: fileParams,
    answers: { 200: z.unknown().describe("The file's bytes") },
  }),
};
