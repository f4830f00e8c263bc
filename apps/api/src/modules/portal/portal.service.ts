import type { AttachmentLimits } from "@cove/contract/attachment-limits.ts";
import type { Satisfaction } from "@cove/contract/csat.ts";
import type {
  CustomerComment,
  CustomerTicket,
  CustomerTicketDetail,
  CustomerTicketListAnswer,
  createPortalTicketBody,
  PortalCustomer,
  portalReplyBody,
  updatePortalMeBody,
} from "@cove/contract/portal.ts";
import { PORTAL_TICKET_PAGE_SIZE } from "@cove/contract/portal.ts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { attachPending, listPublicAttachments, readPublicAttachment } from "../attachments/index.ts";
import { renameContact } from "../contacts/index.ts";
import { surveyOfTicket } from "../csat/index.ts";
import {
  addComment,
  type CustomerTicketRow,
  changeTicket,
  customerTicket,
  listCustomerTickets,
  openTicket,
  publicComments,
} from "../tickets/index.ts";
import type { OrganizationRef } from "./portal-organization.ts";
import { readCustomer } from "./portal-sign-in.service.ts";

/**
 * What a signed-in customer does in the portal. Every function runs in the contact's own transaction (withContact):
 * the contact role's policies confine it to this contact's tickets and their public replies, and each query also
 * filters by the contact itself.
 */
export type ContactCtx = TenantCtx & { contactId: string };

const ticketNotFound = () => notFound("Ticket");

export function me(ctx: ContactCtx): Promise<PortalCustomer> {
  return readCustomer(ctx.db, ctx.orgId, ctx.contactId);
}

/** A customer keeps their email (it is how they sign in); their name and company are theirs to change. */
export async function updateMe(ctx: ContactCtx, input: z.output<typeof updatePortalMeBody>): Promise<PortalCustomer> {
  await renameContact(ctx, ctx.contactId, { name: input.name, company: input.company });
  return me(ctx);
}

const iso = (value: Date | string) => new Date(value).toISOString();

const toCustomerTicket = (row: CustomerTicketRow): CustomerTicket => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function listMyTickets(
  ctx: ContactCtx,
  { page, cursor }: { page: number; cursor?: string | undefined },
): Promise<CustomerTicketListAnswer> {
  const limit = PORTAL_TICKET_PAGE_SIZE;
  const { rows, total, nextCursor } = await listCustomerTickets(ctx.db, ctx.orgId, ctx.contactId, {
    limit,
    offset: (page - 1) * limit,
    cursor,
  });
  return {
    tickets: rows.map(({ cursor_updated_at: _, ...row }) => toCustomerTicket(row)),
    pagination: { page, limit, total, pages: Math.ceil(total / limit), next_cursor: nextCursor },
  };
}

async function findMyTicket(ctx: ContactCtx, id: string): Promise<CustomerTicketRow> {
  const row = await customerTicket(ctx.db, ctx.orgId, ctx.contactId, id);
  if (!row) throw ticketNotFound();
  return row;
}

export async function getMyTicket(ctx: ContactCtx, id: string): Promise<CustomerTicketDetail> {
  const row = await findMyTicket(ctx, id);
  const comments = await publicComments(ctx.db, ctx.orgId, id);
  const satisfaction = await mySurvey(ctx, row);
  const attachments = await listPublicAttachments(ctx.db, ctx.orgId, id);
  return { ...toCustomerTicket(row), comments, satisfaction, attachments };
}

/** A file of the public conversation of one of the customer's tickets (another's, or an internal note's: 404). */
export async function myTicketFile(ctx: ContactCtx, ticketId: string, fileId: string) {
  await findMyTicket(ctx, ticketId);
  const file = await readPublicAttachment(ctx.db, ctx.orgId, ticketId, fileId);
  if (!file) throw notFound("Attachment");
  return file;
}

/** The ticket's survey while it is solved or closed (a reopened ticket asks again when it is solved again). */
function mySurvey(ctx: ContactCtx, row: CustomerTicketRow): Promise<Satisfaction | null> {
  if (row.status !== "solved" && row.status !== "closed") return Promise.resolve(null);
  return surveyOfTicket(ctx, row.id);
}

/** A portal ticket starts open; its source is the portal and its requester the customer. */
export async function createMyTicket(
  ctx: ContactCtx,
  input: z.output<typeof createPortalTicketBody>,
  limits: AttachmentLimits,
): Promise<CustomerTicketDetail> {
  const customer = await me(ctx);
  const { id } = await openTicket(
    ctx,
    {
      subject: input.subject,
      description: input.description,
      priority: input.priority,
      requester_name: customer.name,
      requester_email: customer.email ?? "",
      tags: [],
    },
    { source: "portal", contactId: ctx.contactId },
  );
  // The files go with the first message (comment_id null), as an email's do.
  await attachPending(
    ctx.db,
    ctx.orgId,
    { ticketId: id, commentId: null, contactId: ctx.contactId },
    input.attachment_ids ?? [],
    limits,
  );
  return getMyTicket(ctx, id);
}

export const CLOSED_TICKET =
  "This ticket is closed and can no longer be answered. Please submit a new ticket and mention this one.";

/**
 * The customer's public reply. A reply to a ticket that was solved, or was waiting for them (pending), opens it again
 * for the team; a closed ticket is final (as in Zendesk: the customer opens a new one).
 */
export async function replyToMyTicket(
  ctx: ContactCtx,
  id: string,
  input: z.output<typeof portalReplyBody>,
  limits: AttachmentLimits,
): Promise<CustomerComment> {
  const row = await findMyTicket(ctx, id);
  if (row.status === "closed") throw new AppError("CONFLICT", CLOSED_TICKET);
  const comment = await addComment(
    ctx,
    id,
    { body: input.body, is_public: true, attachment_ids: input.attachment_ids },
    limits,
  );
  if (row.status === "solved" || row.status === "pending") await changeTicket(ctx, id, { status: "open" });
  return {
    id: comment.id,
    body: comment.body,
    author_name: comment.author_name,
    from_customer: true,
    created_at: comment.created_at,
  };
}

/** The customer's organization (the contact role may read its name and slug). */
export async function myOrganization(ctx: ContactCtx): Promise<OrganizationRef> {
  const [org] = await ctx.db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (!org) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return org;
}
