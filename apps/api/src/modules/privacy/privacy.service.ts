import {
  ALREADY_ERASED,
  DEMO_NOT_ERASABLE,
  ERASE_MISMATCH_EMAIL,
  ERASE_MISMATCH_NAME,
  ERASED_CONTACT_NAME,
  type EraseContactAnswer,
} from "@cove/contract/contacts.ts";
import type { DataExport } from "@cove/contract/settings.ts";
import { eq } from "drizzle-orm";
import { strToU8 } from "fflate";
import { organizations } from "../../db/schema/organizations.ts";
import { audit } from "../../platform/audit.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Jobs } from "../../platform/jobs.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { customerFiles, deleteCustomerFiles } from "../attachments/index.ts";
import { chatIdsOfContact, customerChats, deleteChatsOfContact } from "../chat/index.ts";
import {
  anonymizeContact,
  type ContactRecords,
  endContactSessions,
  getContact,
  lockContactProfile,
} from "../contacts/index.ts";
import { customerSurveyAnswers, deleteSurveysOfContact } from "../csat/index.ts";
import { forgetMailAddress } from "../email/index.ts";
import { forgetCustomerInNotifications } from "../notifications/index.ts";
import { dropContactExports, exportFile, latestExport, requestExport } from "../organizations/index.ts";
import { deleteSignInLinks } from "../portal/index.ts";
import { anonymizeCustomerInTickets, customerTickets } from "../tickets/index.ts";

/**
 * A customer's data on request (GDPR articles 15, 17 and 20; docs/decisions/2026-11-29-customer-data-requests.md).
 * Export: the organization export's machinery (one job, lease and download), scoped to a contact, whose ZIP this
 * module makes from what the owning modules give. Erase: in the request's one transaction, the customer's chats,
 * files, surveys, sessions and sign-in links go, and their name and email leave the tickets, which stay.
 * Admins only (the routes); the audit entries are written by the caller around requestCustomerExport and eraseCustomer.
 */

type PrivacyCtx = Pick<TenantCtx, "orgId" | "db">;

/** Where an erased customer's email was: unique to them, and under .invalid (RFC 6761), so never delivered. */
export const erasedAddress = (contactId: string) => `deleted-customer-${contactId}@erased.invalid`;

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

const README = `This customer's data, exported from Cove at their request (GDPR articles 15 and 20).
profile.json       who they are in this help desk
tickets.json       the tickets they asked, each with its public conversation (the team's internal notes are not theirs)
chats.json         their live chats, with every message
satisfaction.json  their answers to satisfaction surveys
files.json         the files of those conversations; each file's bytes are in files/<id>/<name>
`;

/** The customer's ZIP, file by file: made by the export job (organizations/export.service.ts), under row-level security. */
export async function customerExportFiles(ctx: PrivacyCtx, contactId: string): Promise<Record<string, Uint8Array>> {
  const profile = await lockContactProfile(ctx, contactId);
  if (!profile) throw notFound("Contact");
  const tickets = await customerTickets(ctx, contactId);
  const chats = await customerChats(ctx, contactId);
  const satisfaction = await customerSurveyAnswers(ctx, contactId);
  const stored = await customerFiles(ctx.db, ctx.orgId, {
    ticketIds: tickets.map((t) => t.id),
    chatIds: chats.map((c) => c.id),
  });
  const out: Record<string, Uint8Array> = {
    "README.txt": strToU8(README),
    "profile.json": json({
      id: profile.id,
      name: profile.name,
      email: profile.email,
      company: profile.company,
      created_at: profile.createdAt.toISOString(),
      updated_at: profile.updatedAt.toISOString(),
    }),
    "tickets.json": json(tickets),
    "chats.json": json(chats),
    "satisfaction.json": json(satisfaction),
  };
  const index = stored.map((f) => {
    const path = `files/${f.id}/${f.filename}`;
    out[path] = new Uint8Array(f.bytes);
    return {
      id: f.id,
      path,
      filename: f.filename,
      content_type: f.contentType,
      size: f.size,
      ticket_id: f.ticketId,
      comment_id: f.commentId,
      chat_id: f.chatSessionId,
    };
  });
  out["files.json"] = json(index);
  return out;
}

async function contactOr404(ctx: Ctx, contactId: string) {
  const contact = await lockContactProfile(ctx, contactId);
  if (!contact) throw notFound("Contact");
  return contact;
}

/** Starts the export of a customer's data (or answers the one under way). */
export async function requestCustomerExport(ctx: Ctx, jobs: Jobs, contactId: string): Promise<DataExport> {
  await contactOr404(ctx, contactId);
  return requestExport(ctx, jobs, contactId);
}

/** The latest export of a customer's data, and its progress. */
export async function latestCustomerExport(ctx: Ctx, contactId: string): Promise<DataExport | null> {
  await contactOr404(ctx, contactId);
  return latestExport(ctx, contactId);
}

/** A finished export of a customer's data, to download. */
export async function customerExportFile(ctx: Ctx, contactId: string, exportId: string) {
  await contactOr404(ctx, contactId);
  return exportFile(ctx, exportId, contactId);
}

/** True when the typed confirmation is the customer's email (their name when they have none), whatever the case. */
const confirms = (typed: string, expected: string) =>
  typed.trim().length > 0 && typed.trim().toLowerCase() === expected.trim().toLowerCase();

/** Erases a customer, in the caller's transaction (all of it, or nothing). */
export async function eraseCustomer(
  ctx: Ctx,
  records: ContactRecords,
  contactId: string,
  confirmEmail: string,
): Promise<EraseContactAnswer> {
  const contact = await contactOr404(ctx, contactId);
  // The public demo's customer is everyone's to try (portal-demo.ts resets them at each start): not erasable.
  const [org] = await ctx.db
    .select({ isDemo: organizations.isDemo })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (org?.isDemo) throw new AppError("FORBIDDEN", DEMO_NOT_ERASABLE);
  // Erased already (a second click, a concurrent request that waited for the first): said so.
  if (contact.email === null && contact.name === ERASED_CONTACT_NAME) throw new AppError("CONFLICT", ALREADY_ERASED);
  if (!confirms(confirmEmail, contact.email ?? contact.name)) {
    throw new AppError("CONFIRMATION_MISMATCH", contact.email ? ERASE_MISMATCH_EMAIL : ERASE_MISMATCH_NAME);
  }
  const placeholder = erasedAddress(contactId);
  const chatIds = await chatIdsOfContact(ctx, contactId);
  const { ticketIds, commentIds } = await anonymizeCustomerInTickets(ctx, contactId, contact.email, contact.name, {
    name: ERASED_CONTACT_NAME,
    email: placeholder,
  });
  // Files first: a chat's files would go with it, but their stored parts would not.
  const files = await deleteCustomerFiles(ctx.db, ctx.orgId, { contactId, ticketIds, commentIds, chatIds });
  const chats = await deleteChatsOfContact(ctx, contactId);
  const surveys = await deleteSurveysOfContact(ctx, contactId);
  const sessions = await endContactSessions(ctx, contactId, null);
  if (contact.email) {
    await deleteSignInLinks(ctx, contact.email);
    await forgetMailAddress(ctx, contact.email, placeholder);
  }
  await forgetCustomerInNotifications(ctx, { name: contact.name, ticketIds, chatIds }, ERASED_CONTACT_NAME);
  await dropContactExports(ctx, contactId);
  await anonymizeContact(ctx, contactId, ERASED_CONTACT_NAME);
  const { contact: erased } = await getContact(ctx, records, contactId);
  const counts = { tickets_anonymized: ticketIds.length, chats, files, surveys, sessions };
  // Last, as every audit entry is (its lock is the last one taken); it names nobody: the customer is gone.
  await audit(ctx, "contact.erased", { type: "contact", id: contactId, label: ERASED_CONTACT_NAME }, counts);
  return { contact: erased, erased: counts };
}
