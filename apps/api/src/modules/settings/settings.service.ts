import { safeBrandColor } from "@cove/contract/brand-colors.ts";
import { inboundAddress } from "@cove/contract/email.ts";
import type {
  Branding,
  EmailSettings,
  GeneralSettings,
  updateEmailBody,
  updateGeneralBody,
} from "@cove/contract/settings.ts";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { organizationSettings } from "../../db/schema/settings.ts";
import { audit } from "../../platform/audit.ts";
import { type Db, isUniqueViolation, type Queryable } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { organizationAt } from "../../platform/organizations.ts";
import { type Ctx, withVisitor } from "../../platform/tenancy.ts";
import { checkLogo, logoBytes } from "./logo.ts";

const logoUrl = (slug: string, version: string | null, hasLogo: boolean) =>
  hasLogo ? `/api/public/${slug}/logo?v=${version ?? "0"}` : null;

async function readSettings(db: Queryable, orgId: string) {
  const [row] = await db
    .select({
      name: organizations.name,
      slug: organizations.slug,
      isDemo: organizations.isDemo,
      timezone: organizations.timezone,
      brandColor: organizationSettings.brandColor,
      logo: organizationSettings.logo,
      logoVersion: organizationSettings.logoVersion,
      senderName: organizationSettings.emailSenderName,
      replyTo: organizationSettings.emailReplyTo,
      signature: organizationSettings.emailSignature,
      acknowledge: organizationSettings.emailAcknowledge,
    })
    .from(organizations)
    .leftJoin(organizationSettings, eq(organizationSettings.organizationId, organizations.id))
    .where(eq(organizations.id, orgId));
  if (!row) throw notFound("Organization");
  return row;
}

/** How the email channel writes for the organization: sender name, reply-to, signature, acknowledgements (on). */
export async function emailSettingsOf(
  db: Queryable,
  orgId: string,
): Promise<{ senderName: string | null; replyTo: string | null; signature: string | null; acknowledge: boolean }> {
  const [row] = await db
    .select({
      senderName: organizationSettings.emailSenderName,
      replyTo: organizationSettings.emailReplyTo,
      signature: organizationSettings.emailSignature,
      acknowledge: organizationSettings.emailAcknowledge,
    })
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, orgId));
  return row ?? { senderName: null, replyTo: null, signature: null, acknowledge: true };
}

export async function getGeneral(ctx: Ctx, publicUrl: string): Promise<GeneralSettings> {
  const s = await readSettings(ctx.db, ctx.orgId);
  return {
    name: s.name,
    slug: s.slug,
    timezone: s.timezone,
    brand_color: safeBrandColor(s.brandColor),
    logo_url: logoUrl(s.slug, s.logoVersion, Boolean(s.logo)),
    help_center_url: `${publicUrl}/help/${s.slug}`,
  };
}

export async function updateGeneral(
  ctx: Ctx,
  input: z.output<typeof updateGeneralBody>,
  publicUrl: string,
): Promise<GeneralSettings> {
  const current = await readSettings(ctx.db, ctx.orgId);
  if (input.slug !== undefined && input.slug !== current.slug && current.isDemo) {
    // The demo pages link to the demo organization's help center by this address.
    throw new AppError("FORBIDDEN", "The demo organization's help center address cannot be changed.");
  }
  const org: Partial<typeof organizations.$inferInsert> = {};
  if (input.name !== undefined) org.name = input.name;
  if (input.slug !== undefined) org.slug = input.slug;
  if (input.timezone !== undefined) org.timezone = input.timezone;
  if (Object.keys(org).length > 0) {
    try {
      // A savepoint, so a taken address is answered without aborting the request's transaction.
      await ctx.db.transaction((sp) =>
        sp
          .update(organizations)
          .set({ ...org, updatedAt: new Date() })
          .where(eq(organizations.id, ctx.orgId)),
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError("CONFLICT", "That help center address is taken: choose another.", [
          { path: "slug", message: "That help center address is taken: choose another." },
        ]);
      }
      throw err;
    }
  }
  if (input.timezone !== undefined && input.timezone !== current.timezone) {
    // Business hours are read in the organization's time zone: what depends on it reacts to the event, in this
    // transaction (the SLA due times: modules/automation/sla.ts).
    await ctx.emit("organization.timezone_changed", { from: current.timezone, to: input.timezone });
  }
  const branding: Partial<typeof organizationSettings.$inferInsert> = {};
  if (input.brand_color !== undefined) branding.brandColor = input.brand_color;
  if (input.logo === null) {
    branding.logo = null;
    branding.logoVersion = null;
  } else if (input.logo !== undefined) {
    const checked = checkLogo(input.logo);
    branding.logo = checked.logo;
    branding.logoVersion = checked.version;
  }
  if (Object.keys(branding).length > 0) await upsertSettings(ctx, branding);
  await auditGeneral(ctx, current, input);
  return getGeneral(ctx, publicUrl);
}

/** The audit entries of a general settings change: what changed (a logo is named, never copied). */
async function auditGeneral(
  ctx: Ctx,
  current: { name: string; slug: string; timezone: string },
  input: z.output<typeof updateGeneralBody>,
): Promise<void> {
  const changed: Record<string, { from: string; to: string }> = {};
  for (const field of ["name", "slug", "timezone"] as const) {
    const to = input[field];
    if (to !== undefined && to !== current[field]) changed[field] = { from: current[field], to };
  }
  const object = { type: "organization", id: ctx.orgId, label: input.name ?? current.name };
  if (Object.keys(changed).length > 0) await audit(ctx, "settings.general_changed", object, changed);
  const brand: Record<string, unknown> = {};
  if (input.brand_color !== undefined) brand.brand_color = input.brand_color;
  if (input.logo !== undefined) brand.logo = input.logo === null ? "removed" : "changed";
  if (Object.keys(brand).length > 0) await audit(ctx, "settings.branding_changed", object, brand);
}

async function upsertSettings(ctx: Ctx, values: Partial<typeof organizationSettings.$inferInsert>) {
  const set = { ...values, updatedAt: new Date() };
  await ctx.db
    .insert(organizationSettings)
    .values({ organizationId: ctx.orgId, ...set })
    .onConflictDoUpdate({ target: organizationSettings.organizationId, set });
}

/** inboundDomain: INBOUND_DOMAIN (null: the receiver has no domain, so there is no inbound address to show). */
export async function getEmail(ctx: Ctx, inboundDomain: string | null): Promise<EmailSettings> {
  const s = await readSettings(ctx.db, ctx.orgId);
  return {
    sender_name: s.senderName ?? "",
    reply_to: s.replyTo ?? null,
    signature: s.signature ?? "",
    inbound_address: inboundDomain ? inboundAddress(s.slug, inboundDomain) : null,
    acknowledge: s.acknowledge ?? true,
  };
}

export async function updateEmail(
  ctx: Ctx,
  input: z.output<typeof updateEmailBody>,
  inboundDomain: string | null,
): Promise<EmailSettings> {
  await upsertSettings(ctx, {
    emailSenderName: input.sender_name,
    emailReplyTo: input.reply_to,
    emailSignature: input.signature,
    ...(input.acknowledge === undefined ? {} : { emailAcknowledge: input.acknowledge }),
  });
  await audit(
    ctx,
    "settings.email_changed",
    { type: "organization", id: ctx.orgId, label: null },
    {
      sender_name: input.sender_name,
      reply_to: input.reply_to,
      ...(input.acknowledge === undefined ? {} : { acknowledge: input.acknowledge }),
    },
  );
  return getEmail(ctx, inboundDomain);
}

/**
 * An organization's public face: its name, its brand colour (always a plain #rrggbb) and its logo's address on Cove
 * (a path; null without a logo). What its portal, help center, chat widget and the emails its customers get show.
 */
export interface OrganizationBrand {
  name: string;
  slug: string;
  color: string;
  logoPath: string | null;
}

/**
 * The brand of an organization, read in the caller's transaction (the request role or the system, confined to the
 * organization; the contact role has no grant on the settings, so the portal reads it with brandOfOrganization). The
 * logo's bytes are not read: whether there is one is enough to name its address.
 */
export async function readBrand(db: Queryable, orgId: string): Promise<OrganizationBrand> {
  const [row] = await db
    .select({
      name: organizations.name,
      slug: organizations.slug,
      brandColor: organizationSettings.brandColor,
      logoVersion: organizationSettings.logoVersion,
      hasLogo: sql<boolean>`${organizationSettings.logo} is not null`,
    })
    .from(organizations)
    .leftJoin(organizationSettings, eq(organizationSettings.organizationId, organizations.id))
    .where(eq(organizations.id, orgId));
  if (!row) throw notFound("Organization");
  return {
    name: row.name,
    slug: row.slug,
    color: safeBrandColor(row.brandColor),
    logoPath: logoUrl(row.slug, row.logoVersion, row.hasLogo === true),
  };
}

/** The brand of an organization known by id, outside any request's transaction (public, like the help center). */
export function brandOfOrganization(db: Db, orgId: string): Promise<OrganizationBrand> {
  return withVisitor(db, orgId, (v) => readBrand(v.db, orgId));
}

/** The public face of an organization, for its help center, its chat widget and its portal. */
export async function branding(db: Db, slug: string): Promise<Branding> {
  const brand = await brandOfOrganization(db, (await organizationAt(db, slug, "Organization")).id);
  return { name: brand.name, slug: brand.slug, brand_color: brand.color, logo_url: brand.logoPath };
}

export async function logo(db: Db, slug: string): Promise<{ type: string; bytes: Buffer }> {
  const orgId = (await organizationAt(db, slug, "Organization")).id;
  const stored = await withVisitor(db, orgId, async (v) => (await readSettings(v.db, orgId)).logo);
  const image = stored ? logoBytes(stored) : null;
  if (!image) throw notFound("Logo");
  return image;
}
