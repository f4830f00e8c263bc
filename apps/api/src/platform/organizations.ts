import { isSlugShaped } from "@cove/contract/slugs.ts";
import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { organizations } from "../db/schema/organizations.ts";
import type { Queryable } from "./db.ts";
import { notFound } from "./errors.ts";

/** An organization as its public addresses name it. */
export interface OrganizationRef {
  id: string;
  name: string;
  slug: string;
}

/**
 * The organization behind a public address (its help center, portal, chat widget, inbound mail), or null. It runs
 * before any organization is known, so, like sign-in, it reads as the owner role and matches only on the public slug;
 * the work that follows runs confined to the organization. Slugs keep the letters of every script
 * (packages/contract/src/slugs.ts), so "книжный-магазин" is found like "acme".
 */
export async function organizationBySlug(db: Queryable, slug: string): Promise<OrganizationRef | null> {
  if (!isSlugShaped(slug)) return null;
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.slug, slug))
    .limit(1);
  return org ?? null;
}

/**
 * The organization behind a public address, or a 404 that names what the address was for ("Portal not found", "Help
 * center not found"): an unknown address and a malformed one are answered alike.
 */
export async function organizationAt(db: Queryable, slug: string, what: string): Promise<OrganizationRef> {
  const org = await organizationBySlug(db, slug);
  if (!org) throw notFound(what);
  return org;
}

/** A route's writesTo when its address names the organization (:orgSlug); an unknown slug writes nothing. */
export async function orgOfSlug(req: FastifyRequest): Promise<string | null> {
  const slug = (req.params as { orgSlug?: unknown }).orgSlug;
  if (typeof slug !== "string") return null;
  return (await organizationBySlug(req.server.db, slug))?.id ?? null;
}
