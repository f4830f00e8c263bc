import {
  PORTAL_LINK_MINUTES,
  PORTAL_LINKS_PER_ADDRESS,
  PORTAL_LINKS_PER_EMAIL,
  PORTAL_SESSION_DAYS,
  type PortalCustomer,
  type PortalSessionAnswer,
  portalLinkMessage,
  portalPath,
} from "@cove/contract/portal.ts";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { portalSignInLinks } from "../../db/schema/portal.ts";
import { hashToken, newToken } from "../../platform/auth.ts";
import { type Db, type Queryable, queryRows } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { composeMail, mailBrand } from "../../platform/mail.ts";
import { type TenantCtx, withSystem } from "../../platform/tenancy.ts";
import { endContactSessions, findContactCard, findOrCreateContact, startContactSession } from "../contacts/index.ts";
import { readBrand } from "../settings/index.ts";
import { type OrganizationRef, organizationBySlug, toPortalOrganization } from "./portal-organization.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;

export const INVALID_PORTAL_LINK =
  "This sign-in link is invalid, has expired or was already used. Enter your email to get a new one.";

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export interface PortalMail {
  jobs: Jobs;
  publicUrl: string;
}

/**
 * Emails a single-use sign-in link to the portal of the organization at orgSlug. Anyone may ask for a link for any
 * email: whether a contact already has it or not, the answer and the email are the same (a customer who never wrote in
 * can still open a ticket; the contact is created when the link is first used). Requests are throttled per email
 * within the organization and per address, counted from the links themselves; the counts and the new link are taken
 * under locks on both keys, so a burst of requests cannot slip past the limits together.
 */
export async function requestSignInLink(
  db: Db,
  mail: PortalMail,
  input: { orgSlug: string; email: string; ip: string },
): Promise<{ message: string }> {
  const org = await organizationBySlug(db, input.orgSlug);
  const token = newToken();
  const link = `${mail.publicUrl}${portalPath(org.slug)}?token=${token}`;
  // Like sign-in, this runs as the owner role before any session exists: it reads and writes only the links of this
  // email and address.
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`portal-ip:${input.ip}`}::text, 0)),
                 pg_advisory_xact_lock(hashtextextended(${`portal-email:${org.id}:${input.email}`}::text, 0))`,
    );
    const since = sql`now() - ${PORTAL_LINK_MINUTES}::int * interval '1 minute'`;
    const [counts] = await queryRows<{ by_email: number; by_ip: number }>(
      tx,
      sql`select (select count(*) from portal_sign_in_links
                  where organization_id = ${org.id} and email = ${input.email} and created_at > ${since})::int as by_email,
                 (select count(*) from portal_sign_in_links where ip = ${input.ip} and created_at > ${since})::int as by_ip`,
    );
    if ((counts?.by_email ?? 0) >= PORTAL_LINKS_PER_EMAIL || (counts?.by_ip ?? 0) >= PORTAL_LINKS_PER_ADDRESS) {
      throw new AppError(
        "RATE_LIMITED",
        `Too many sign-in links were asked for. Please wait ${PORTAL_LINK_MINUTES} minutes and try again.`,
      );
    }
    // Links a day old count for nothing any more; pruning here keeps the table small without a scheduled job.
    await tx
      .delete(portalSignInLinks)
      .where(
        and(eq(portalSignInLinks.organizationId, org.id), lt(portalSignInLinks.createdAt, new Date(Date.now() - DAY))),
      );
    await tx.insert(portalSignInLinks).values({
      organizationId: org.id,
      email: input.email,
      tokenHash: hashToken(token),
      ip: input.ip,
      expiresAt: new Date(Date.now() + PORTAL_LINK_MINUTES * MINUTE),
    });
    const name = oneLine(org.name);
    // The organization's logo and colour lead the message: it is the organization writing to its customer.
    const brand = mailBrand(await readBrand(tx, org.id), mail.publicUrl);
    await mail.jobs.sendMail(
      tx,
      composeMail({
        brand,
        to: input.email,
        subject: `Your sign-in link for ${name} support`,
        intro: [
          "Hello,",
          `Someone (we hope you) asked to sign in to the ${name} support portal with this email address. Open this link to see your tickets, follow their answers and ask for help:`,
        ],
        action: { label: "Sign in to the support portal", url: link },
        outro: [
          `The link works once and expires in ${PORTAL_LINK_MINUTES} minutes. If you did not ask for it, you can ignore this email: nobody can sign in without the link.`,
        ],
      }),
    );
  });
  return { message: portalLinkMessage(input.email) };
}

/**
 * Spends a sign-in link of the organization at orgSlug (once: a concurrent second use finds it spent) and signs its
 * email's contact in, creating the contact on first use.
 */
export async function redeemSignInLink(
  db: Db,
  input: { orgSlug: string; token: string },
): Promise<PortalSessionAnswer> {
  const org = await organizationBySlug(db, input.orgSlug);
  return withSystem(db, org.id, "portal", async (ctx) => {
    const [link] = await ctx.db
      .update(portalSignInLinks)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(portalSignInLinks.organizationId, org.id),
          eq(portalSignInLinks.tokenHash, hashToken(input.token)),
          isNull(portalSignInLinks.usedAt),
          gt(portalSignInLinks.expiresAt, new Date()),
        ),
      )
      .returning({ email: portalSignInLinks.email });
    if (!link) throw new AppError("INVALID_TOKEN", INVALID_PORTAL_LINK);
    const contactId = await findOrCreateContact(ctx, { name: "", email: link.email });
    return signIn(ctx, org, contactId);
  });
}

/** A new portal session for a contact (after a link, or the demo's fixed customer). */
export async function signIn(
  ctx: TenantCtx,
  org: OrganizationRef,
  contactId: string,
  lifetimeMs = PORTAL_SESSION_DAYS * DAY,
): Promise<PortalSessionAnswer> {
  const session = await startContactSession(ctx, contactId, "portal", lifetimeMs);
  return {
    token: session.token,
    customer: await readCustomer(ctx.db, ctx.orgId, contactId),
    organization: toPortalOrganization(await readBrand(ctx.db, org.id)),
  };
}

export async function readCustomer(db: Queryable, orgId: string, contactId: string): Promise<PortalCustomer> {
  const row = await findContactCard(db, orgId, contactId);
  if (!row) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return row;
}

/** Signing out ends this session only (the customer's other devices stay signed in). */
export async function signOut(ctx: TenantCtx & { contactId: string }, sessionId: string): Promise<void> {
  await endContactSessions(ctx, ctx.contactId, sessionId);
}

/** Deletes the sign-in links asked for an email (erasing the customer, modules/privacy), in the caller's transaction. */
export async function deleteSignInLinks(ctx: Pick<TenantCtx, "orgId" | "db">, email: string): Promise<number> {
  const gone = await ctx.db
    .delete(portalSignInLinks)
    .where(and(eq(portalSignInLinks.organizationId, ctx.orgId), eq(portalSignInLinks.email, email)))
    .returning({ id: portalSignInLinks.id });
  return gone.length;
}
