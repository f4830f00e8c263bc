import type { ContactSessionKind } from "@cove/contract/contacts.ts";
import { sql } from "drizzle-orm";
import { contactSessions } from "../../db/schema/contacts.ts";
import { hashToken, newContactToken } from "../../platform/auth.ts";
import { queryRows } from "../../platform/db.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

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
export async function findOrCreateContact(ctx: Pick<TenantCtx, "orgId" | "db">, input: ContactInput): Promise<string> {
  const email = input.email?.trim().toLowerCase() || null;
  const name = input.name.trim() || email || "Visitor";
  const company = input.company?.trim() || null;
  const [row] = email
    ? await queryRows<{ id: string }>(
        ctx.db,
        sql`insert into contacts as c (organization_id, name, email, company)
            values (${ctx.orgId}, ${name}, ${email}, ${company})
            on conflict (organization_id, email) where email is not null
            do update set company = coalesce(c.company, excluded.company), updated_at = now()
            returning c.id`,
      )
    : await queryRows<{ id: string }>(
        ctx.db,
        sql`insert into contacts (organization_id, name, company) values (${ctx.orgId}, ${name}, ${company})
            returning id`,
      );
  if (!row) throw new Error("contact upsert returned nothing");
  return row.id;
}

/**
 * Signs a contact in (the portal after a magic link, or a chat visitor): a new session whose token is returned once
 * and stored only as its hash.
 */
export async function startContactSession(
  ctx: Pick<TenantCtx, "orgId" | "db">,
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
