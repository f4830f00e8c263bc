import { z } from "zod";
import { emailField, requiredText } from "./auth.ts";
import { billingMessage } from "./billing.ts";
import { defineRoute } from "./routes.ts";
import { isReservedOrgSlug, isSlugShaped } from "./slugs.ts";

const noNul = (s: string) => !s.includes("\u0000");

export { DEFAULT_BRAND_COLOR } from "./brand-colors.ts";
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export const LOGO_MAX_BYTES = 200 * 1024;

export const slugField = z
  .string({ error: "Help center address is required" })
  .trim()
  .toLowerCase()
  .min(3, "The help center address must be at least 3 characters")
  .max(60, "The help center address must be at most 60 characters")
  // The shape slugify gives (letters of every script, digits, hyphens), and never an address of Cove's own pages.
  .refine(
    (s) => isSlugShaped(s) && !s.endsWith("-"),
    "Use letters, digits and hyphens, starting and ending with a letter or digit",
  )
  .refine((s) => !isReservedOrgSlug(s), "That address is reserved: choose another");

export const brandColorField = z
  .string({ error: "Brand colour is required" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Brand colour must be a hex colour such as #4f46e5")
  .transform((c) => c.toLowerCase());

export const timezoneField = z
  .string({ error: "Time zone is required" })
  .trim()
  .min(1, "Time zone is required")
  .max(64, "Time zone is not valid")
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "Choose a time zone from the list, such as Europe/Paris");

/** Settings > General. logo_url is where the help center (and later the widget and mail) load the logo from. */
export const generalSettings = z.object({
  name: z.string(),
  slug: z.string(),
  timezone: z.string(),
  brand_color: z.string(),
  logo_url: z.string().nullable(),
  help_center_url: z.string(),
});
export type GeneralSettings = z.infer<typeof generalSettings>;

export const updateGeneralBody = z
  .object({
    name: requiredText("Organization name", 120).optional(),
    slug: slugField.optional(),
    timezone: timezoneField.optional(),
    brand_color: brandColorField.optional(),
    /** A data URL of a PNG, JPEG or WebP image; null removes the logo. */
    logo: z
      .string()
      .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, "The logo must be at most 200 KB")
      .regex(/^data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+$/, "The logo must be a PNG, JPEG or WebP image")
      .nullable()
      .optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one setting to change");
export type UpdateGeneralBody = z.input<typeof updateGeneralBody>;

/** Settings > Email Settings: the sender of replies, the inbound address (null: no INBOUND_DOMAIN set), acknowledgements. */
export const emailSettings = z.object({
  sender_name: z.string(),
  reply_to: z.string().nullable(),
  signature: z.string(),
  inbound_address: z.string().nullable(),
  acknowledge: z.boolean(),
});
export type EmailSettings = z.infer<typeof emailSettings>;

export const updateEmailBody = z.object({
  sender_name: z
    .string()
    .trim()
    .max(120, "Sender name must be at most 120 characters")
    .refine(noNul, "Sender name contains an invalid character")
    .refine((s) => !/[\r\n<>"]/.test(s), "Sender name must not contain line breaks, quotes or angle brackets"),
  reply_to: z.union([emailField, z.literal("").transform(() => null), z.null()]),
  signature: z
    .string()
    .max(2000, "Signature must be at most 2000 characters")
    .refine(noNul, "Signature contains an invalid character"),
  /** Absent: unchanged. */
  acknowledge: z.boolean().optional(),
});
export type UpdateEmailBody = z.input<typeof updateEmailBody>;

/** The public face of an organization, for its help center now and its chat widget and mail later. */
export const branding = z.object({
  name: z.string(),
  slug: z.string(),
  brand_color: z.string(),
  logo_url: z.string().nullable(),
});
export type Branding = z.infer<typeof branding>;
export const brandingParams = z.object({ orgSlug: z.string().max(100) });

/** API keys for the public API: read only, or read and write. */
export const API_KEY_SCOPES = ["read", "read_write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The key's first characters, so a person can tell keys apart; the rest is never shown again. */
  prefix: z.string(),
  created_at: z.iso.datetime(),
  created_by: z.string().nullable(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;
export const apiKeyListAnswer = z.object({ api_keys: z.array(apiKey) });
export const createApiKeyBody = z.object({
  name: requiredText("Key name", 80),
  scope: z.enum(API_KEY_SCOPES, { error: "Scope must be read or read_write" }),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;
/** The whole key is in this answer only. */
export const createApiKeyAnswer = z.object({ api_key: apiKey, token: z.string() });
export type CreateApiKeyAnswer = z.infer<typeof createApiKeyAnswer>;
export const apiKeyParams = z.object({ id: z.string() });

/** Organization data export: a ZIP of JSON files, made by a background job. */
export const EXPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export const dataExport = z.object({
  id: z.uuid(),
  status: z.enum(EXPORT_STATUSES),
  /** 0 to 100. */
  progress: z.number().int().min(0).max(100),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  size_bytes: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExport>;
export const dataExportAnswer = z.object({ export: dataExport.nullable() });
export const exportParams = z.object({ id: z.string() });

/** Deleting the organization: the admin types its name to confirm. */
export const deleteOrganizationBody = z.object({
  confirm: z.string({ error: "Type the organization's name to confirm" }).max(200),
});

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["settings"];

/** Settings and branding: the settings are for admins (docs/product.md, "Roles"); branding is public. */
export const settingsApi = {
  general: defineRoute({
    method: "GET",
    path: "/api/settings/general",
    summary: "Name, help center address, time zone, logo and brand colour",
    tags,
    access: "admin",
    answers: { 200: generalSettings },
  }),
  updateGeneral: defineRoute({
    method: "PUT",
    path: "/api/settings/general",
    summary: "Change the name, help center address, time zone, logo (a data URL; null removes it) or brand colour",
    tags,
    access: "admin",
    body: updateGeneralBody,
    answers: { 200: generalSettings },
    // The help center address is another organization's.
    errors: ["CONFLICT"],
  }),
  email: defineRoute({
    method: "GET",
    path: "/api/settings/email",
    summary: "Sender name, reply-to address and signature of outgoing mail",
    tags,
    access: "admin",
    answers: { 200: emailSettings },
  }),
  updateEmail: defineRoute({
    method: "PUT",
    path: "/api/settings/email",
    summary: "Change the email settings",
    tags,
    access: "admin",
    body: updateEmailBody,
    answers: { 200: emailSettings },
  }),
  deleteOrganization: defineRoute({
    method: "DELETE",
    path: "/api/organization",
    summary: "Delete the organization and all its data (type its name to confirm)",
    tags,
    access: "admin",
    body: deleteOrganizationBody,
    answers: { 200: billingMessage },
  }),
  branding: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/branding",
    summary: "An organization's name, logo and brand colour, for its portal, help center and widget",
    tags,
    access: "public",
    params: brandingParams,
    answers: { 200: branding },
  }),
  logo: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/logo",
    summary: "An organization's logo image",
    tags,
    access: "public",
    params: brandingParams,
    query: z.object({ v: z.string().max(40).optional() }),
    answers: { 200: z.unknown().describe("The image (PNG, JPEG or WebP)") },
  }),
};

/** The keys of the public API: an admin creates, lists and revokes them (listed with the settings). */
export const apiKeysApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/settings/api-keys",
    summary: "API keys for the public API (never their tokens)",
    tags,
    access: "admin",
    answers: { 200: apiKeyListAnswer },
  }),
  create: defineRoute({
    method: "POST",
    path: "/api/settings/api-keys",
    summary: "Create an API key: its token is in this answer only",
    tags,
    access: "admin",
    body: createApiKeyBody,
    answers: { 201: createApiKeyAnswer },
    // A plan without API access; too many active keys.
    errors: ["PLAN_FEATURE", "CONFLICT"],
  }),
  revoke: defineRoute({
    method: "DELETE",
    path: "/api/settings/api-keys/:id",
    summary: "Revoke an API key: it stops working at once",
    tags,
    access: "admin",
    params: apiKeyParams,
    answers: { 200: z.object({ api_key: apiKey }) },
  }),
};

/** The organization's data export (admins): start it, follow its progress, download the ZIP. */
export const organizationExportApi = {
  start: defineRoute({
    method: "POST",
    path: "/api/organization/export",
    summary: "Start an export of all the organization's data (or answer the one under way)",
    tags: ["organization"],
    access: "admin",
    answers: { 202: dataExportAnswer },
  }),
  latest: defineRoute({
    method: "GET",
    path: "/api/organization/export",
    summary: "The latest export and its progress",
    tags: ["organization"],
    access: "admin",
    answers: { 200: dataExportAnswer },
  }),
  download: defineRoute({
    method: "GET",
    path: "/api/organization/export/:id/download",
    summary: "Download a finished export (a ZIP of JSON files)",
    tags: ["organization"],
    access: "admin",
    params: exportParams,
    answers: { 200: z.unknown().describe("A ZIP file (application/zip)") },
  }),
};
