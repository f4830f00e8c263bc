import type { Branding, PortalOrganization } from "@cove/contract/portal.ts";
import { eq } from "drizzle-orm";
import { organizations } from "../../db/schema/organizations.ts";
import type { Queryable } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";

export interface OrganizationRef {
  id: string;
  name: string;
  slug: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** Cove's own accent colour: what a portal shows until its organization sets its branding. */
export const DEFAULT_BRANDING: Branding = { logo_url: null, color: "#4f46e5" };

/**
 * The organization's logo and colour on its portal. Branding settings do not exist yet: every organization gets the
 * default. The settings feature makes this one function read them (an organization without them keeps the default).
 */
export function organizationBranding(_org: OrganizationRef): Branding {
  return DEFAULT_BRANDING;
}

export function toPortalOrganization(org: OrganizationRef): PortalOrganization {
  return { name: org.name, slug: org.slug, branding: organizationBranding(org) };
}

/**
 * The organization of a portal address. It runs before any organization is known, so, like sign-in and the help
 * center, it reads as the owner role and matches only on the public slug; the work that follows runs confined to it.
 */
export async function organizationBySlug(db: Queryable, slug: string): Promise<OrganizationRef> {
  if (!SLUG.test(slug)) throw notFound("Portal");
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.slug, slug))
    .limit(1);
  if (!org) throw notFound("Portal");
  return org;
}

/**
 * The demo organization (PRODUCT.md section 6), whose portal /customer-portal opens; null when the install has none
 * (SEED_DEMO=false). The one the seed flagged, never one found by a slug a registration could take.
 */
export async function demoOrganization(db: Queryable): Promise<OrganizationRef | null> {
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.isDemo, true))
    .limit(1);
  return org ?? null;
}
