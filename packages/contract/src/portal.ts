import { z } from "zod";
import { attachmentIds, attachmentSchema } from "./attachments.ts";
import { emailField, requiredText } from "./auth.ts";
import { satisfactionSchema } from "./csat.ts";
import { cursorParam, pageParam } from "./pagination.ts";
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
