import type { Branding, PortalOrganization } from "@cove/contract/portal.ts";
import type { Db, Queryable } from "../../platform/db.ts";
import { type OrganizationRef, organizationAt } from "../../platform/organizations.ts";
import { brandOfOrganization, type OrganizationBrand } from "../settings/index.ts";

export type { OrganizationRef };

/** A portal's organization as the portal shows it: its name, and its saved logo and colour (Settings > General). */
export function toPortalOrganization(brand: OrganizationBrand): PortalOrganization {
  const branding: Branding = { logo_url: brand.logoPath, color: brand.color };
  return { name: brand.name, slug: brand.slug, branding };
}

/** The portal's view of an organization known by id, read on its own (branding is public: the help center shows it). */
export async function portalOrganization(db: Db, orgId: string): Promise<PortalOrganization> {
  return toPortalOrganization(await brandOfOrganization(db, orgId));
}

/** The organization of a portal address (platform/organizations.ts), or "Portal not found". */
export const organizationBySlug = (db: Queryable, slug: string) => organizationAt(db, slug, "Portal");
