import { DEFAULT_BRAND_COLOR } from "@cove/contract/settings.ts";
import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns.ts";
import { organizationId } from "./organizations.ts";

/** Branding and email settings: one row per organization, created on first change. */
export const organizationSettings = pgTable("organization_settings", {
  organizationId: organizationId().primaryKey(),
  brandColor: text("brand_color").notNull().default(DEFAULT_BRAND_COLOR),
  /** A data URL of the logo (PNG, JPEG or WebP, checked on its bytes), served at /api/public/{slug}/logo. */
  logo: text("logo"),
  /** Changes with the logo, so its URL changes and browsers fetch the new one. */
  logoVersion: text("logo_version"),
  emailSenderName: text("email_sender_name").notNull().default(""),
  emailReplyTo: text("email_reply_to"),
  emailSignature: text("email_signature").notNull().default(""),
  /** A ticket opened by email gets an acknowledgement (the email channel); on unless turned off. */
  emailAcknowledge: boolean("email_acknowledge").notNull().default(true),
  updatedAt: updatedAt(),
});
