import type { ContactSessionKind } from "@cove/contract/contacts.ts";
import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import { contactSessions, contacts } from "../../db/schema/contacts.ts";
import { hashToken, newContactToken } from "../../platform/auth.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/** In the caller's transaction: other modules read and write contacts through these functions, never the tables. */
type ContactsCtx = Pick<TenantCtx, "orgId" | "db">;
/** A caller that can emit (a request, a job's system transaction): a new contact emits contact.created. */
type EmittingCtx = ContactsCtx & Partial<Pick<TenantCtx, "emit">>;

export interface ContactInput {
  name: string;
  email?: string | null;
  company?: string | null;
}

/**
 * The organization's contact for a customer: the one with this email (emails are kept lower-cased, one contact per
 * email and organization, safe under concurrent calls), or a new one. A customer without an email (a chat visitor who
 * gave none) always gets a new contact. A known contact keeps its name; a missing company is filled in.
 */
export async function findOrCreateContact(ctx: EmittingCtx, input: ContactInput): Promise<string> {
  const email = input.email?.trim().toLowerCase() || null;
  const name = input.name.trim() || email || "Visitor";
  const company = input.company?.trim() || null;
  const [row] = email
    ? await queryRows<{ id: string; inserted: boolean }>(
        ctx.db,
        sql`insert into contacts as c (organization_id, name, email, company)
            values (${ctx.orgId}, ${name}, ${email}, ${company})
            on conflict (organization_id, email) where email is not null
            do update set company = coalesce(c.company, excluded.company), updated_at = now()
            returning c.id, (c.xmax::text = '0') as inserted`,
      )
    : await queryRows<{ id: string; inserted: boolean }>(
        ctx.db,
        sql`insert into contacts (organization_id, name, company) values (${ctx.orgId}, ${name}, ${company})
            returning id, true as inserted`,
      );
  if (!row) throw new Error("contact upsert returned nothing");
  if (row.inserted && ctx.emit) await ctx.emit("contact.created", { contact_id: row.id });
  return row.id;
}

/**
 * Signs a contact in (the portal after a magic link, or a chat visitor): a new session whose token is returned once
 * and stored only as its hash.
 */
export async function startContactSession(
  ctx: ContactsCtx,
  contactId: string,
  kind: ContactSessionKind,
  lifetimeMs: number,
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = newContactToken();
  const expiresAt = new Date(Date.now() + lifetimeMs);
  const [row] = await ctx.db
    .insert(contactSessions)
    .values({ organizationId: ctx.orgId, contactId, kind, tokenHash: hashToken(token), expiresAt })
    .returning({ id: contactSessions.id });
  if (!row) throw new Error("contact session insert returned nothing");
  return { token, sessionId: row.id, expiresAt };
}

/** A contact as the customer knows itself (a ticket's author, the portal's "me", a notification's sender), or null. */
export async function findContactCard(
  db: Queryable,
  orgId: string,
  contactId: string,
): Promise<{ id: string; name: string; email: string | null; company: string | null } | null> {
  const [row] = await db
    .select({ id: contacts.id, name: contacts.name, email: contacts.email, company: contacts.company })
    .from(contacts)
    .where(and(eq(contacts.organizationId, orgId), eq(contacts.id, contactId)));
  return row ?? null;
}

/** The customer's own change to their name and company (their email is how they sign in: it stays). */
export async function renameContact(
  ctx: ContactsCtx,
  contactId: string,
  input: { name: string; company: string | null },
): Promise<void> {
  await ctx.db
    .update(contacts)
    .set({ name: input.name, company: input.company, updatedAt: new Date() })
    .where(and(eq(contacts.organizationId, ctx.orgId), eq(contacts.id, contactId)));
}

/**
 * Ends one session of a contact (signing out), or all of them (sessionId null: the demo customer's reset, erasing the
 * customer). Answers how many ended.
 */
export async function endContactSessions(
  ctx: ContactsCtx,
  contactId: string,
  sessionId: string | null,
): Promise<number> {
  const ended = await ctx.db
    .delete(contactSessions)
    .where(
      and(
        eq(contactSessions.organizationId, ctx.orgId),
        eq(contactSessions.contactId, contactId),
        sessionId === null ? undefined : eq(contactSessions.id, sessionId),
      ),
    )
    .returning({ id: contactSessions.id });
  return ended.length;
}

/** A contact as their data request needs it (the whole profile), locked until the caller's transaction ends. */
export async function lockContactProfile(ctx: ContactsCtx, contactId: string) {
  const [row] = await ctx.db
    .select({
      id: contacts.id,
      name: contacts.name,
      email: contacts.email,
      company: contacts.company,
      createdAt: contacts.createdAt,
      updatedAt: contacts.updatedAt,
    })
    .from(contacts)
    .where(and(eq(contacts.organizationId, ctx.orgId), eq(contacts.id, contactId)))
    .for("update");
  return row ?? null;
}

/**
 * Erasing a customer (modules/privacy): the contact stays, so their tickets keep pointing at one customer and the
 * counts hold, but who they were is gone: `name` for their name, no email (a new message from that address makes a new
 * contact), no company.
 */
export async function anonymizeContact(ctx: ContactsCtx, contactId: string, name: string): Promise<void> {
  await ctx.db
    .update(contacts)
    .set({ name, email: null, company: null, updatedAt: new Date() })
    .where(and(eq(contacts.organizationId, ctx.orgId), eq(contacts.id, contactId)));
}

/** A condition for another module's statement: the contact (by its organization and id) has this (lower-case) email. */
export const contactHasEmail = (orgId: SQLWrapper, contactId: SQLWrapper, email: string) =>
  sql`exists (select 1 from ${contacts} c where c.organization_id = ${orgId} and c.id = ${contactId} and c.email = ${email})`;
