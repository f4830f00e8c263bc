import { z } from "zod";
import { defineRoute } from "./routes.ts";

/**
 * The audit log (admins, Settings -> Audit log): every security-relevant action, who did it, to which object, when and
 * from which address. Entries are written by the API in the action's own transaction and never changed.
 */

/** Who acted: a team member, one of the organization's API keys, Cove itself (jobs), or a customer. */
export const AUDIT_ACTOR_TYPES = ["member", "api_key", "system", "customer"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * The stable names of the actions recorded, with the plain words the audit log shows for each. A name never changes
 * once entries carry it; a new action gets a new name.
 */
export const AUDIT_ACTIONS = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed to sign in",
  "two_factor.enabled": "Turned on two-factor sign-in",
  "two_factor.disabled": "Turned off two-factor sign-in",
  "two_factor.reset": "Reset a member's two-factor sign-in",
  "two_factor.recovery_codes_regenerated": "Made new recovery codes",
  "session.revoked": "Signed out a session",
  "session.others_revoked": "Signed out all other sessions",
  "member.signed_out_everywhere": "Signed a member out everywhere",
  "settings.security_changed": "Changed who must use two-factor sign-in",
  "member.invited": "Invited a member",
  "member.invitation_resent": "Sent an invitation again",
  "member.invitation_revoked": "Revoked an invitation",
  "member.invitation_accepted": "Accepted an invitation",
  "member.role_changed": "Changed a member's role",
  "member.status_changed": "Changed a member's status",
  "api_key.created": "Created an API key",
  "api_key.revoked": "Revoked an API key",
  "settings.general_changed": "Changed the general settings",
  "settings.branding_changed": "Changed the branding",
  "settings.email_changed": "Changed the email settings",
  "billing.subscribed": "Subscribed to a plan",
  "billing.plan_changed": "Changed the plan",
  "billing.canceled": "Canceled the subscription",
  "billing.resumed": "Resumed the subscription",
  "billing.payment_method_changed": "Changed the payment method",
  "billing.details_changed": "Changed the billing details",
  "billing.status_changed": "Subscription status changed",
  "export.started": "Started a data export",
  "export.completed": "Finished a data export",
  "export.downloaded": "Downloaded a data export",
  "organization.deletion_requested": "Requested the organization's deletion",
  "automation_rule.created": "Created an automation rule",
  "automation_rule.changed": "Changed an automation rule",
  "automation_rule.deleted": "Deleted an automation rule",
  "mailbox.connected": "Connected a mailbox",
  "mailbox.changed": "Changed a mailbox",
  "mailbox.removed": "Removed a mailbox",
  "contact.export_started": "Started a customer's data export",
  "contact.export_downloaded": "Downloaded a customer's data export",
  "contact.erased": "Erased a customer",
  "webhook.created": "Added a webhook",
  "webhook.changed": "Changed a webhook",
  "webhook.deleted": "Deleted a webhook",
  "webhook.secret_rolled": "Rolled a webhook's signing secret",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export const isAuditAction = (value: string): value is AuditAction => Object.hasOwn(AUDIT_ACTIONS, value);

/** Entries are kept this long; a daily job deletes older ones. */
export const AUDIT_RETENTION_DAYS = 365;
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;
/** The most entries one CSV download holds (newest first). */
export const AUDIT_CSV_MAX = 50_000;

const when = (name: string) =>
  z
    .string()
    .trim()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
      `${name} must be a date (2026-11-29) or a date and time (2026-11-29T08:00:00Z)`,
    )
    .optional();

/** The filters of the list and the CSV download. */
export const auditFilterQuery = z.object({
  actor_type: z
    .enum(AUDIT_ACTOR_TYPES, { error: `actor_type must be one of ${AUDIT_ACTOR_TYPES.join(", ")}` })
    .optional(),
  actor_id: z.string().trim().min(1, "actor_id must not be empty").max(200, "actor_id is too long").optional(),
  action: z.string().trim().refine(isAuditAction, "action is not one of the audit log's actions").optional(),
  /** From this moment on (a date alone: its start, UTC). */
  from: when("from"),
  /** Up to this moment (a date alone: the end of that day, UTC). */
  to: when("to"),
});
export type AuditFilterQuery = z.input<typeof auditFilterQuery>;

export const auditListQuery = auditFilterQuery.extend({
  /** The next_cursor of the previous page: entries older than it. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "cursor is not valid")
    .optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(AUDIT_PAGE_MAX, `limit must be at most ${AUDIT_PAGE_MAX}`)
    .default(AUDIT_PAGE_SIZE),
});
export type AuditListQuery = z.input<typeof auditListQuery>;

export const auditEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string(), name: z.string() }),
  action: z.string(),
  object: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }).nullable(),
  address: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListAnswer = z.object({ entries: z.array(auditEntrySchema), next_cursor: z.string().nullable() });
export type AuditListAnswer = z.infer<typeof auditListAnswer>;

export const auditActorsAnswer = z.object({
  actors: z.array(z.object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string(), name: z.string() })),
});
export type AuditActorsAnswer = z.infer<typeof auditActorsAnswer>;

export const auditVerifyAnswer = z.union([
  z.object({ intact: z.literal(true), checked: z.number().int() }),
  z.object({
    intact: z.literal(false),
    checked: z.number().int(),
    /** The first entry whose stored hash or link to the previous entry does not match. */
    brokenAt: z.string(),
    reason: z.string(),
  }),
]);
export type AuditVerifyAnswer = z.infer<typeof auditVerifyAnswer>;

/** The plain words of an action (its stable name when it is one this version does not know). */
export const auditActionLabel = (action: string): string => (isAuditAction(action) ? AUDIT_ACTIONS[action] : action);

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["audit log"];

/** The audit log (admins): its entries with filters, the same as CSV, and the check of its hash chain. */
export const auditApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/audit-log",
    summary: "The audit log, newest first, filtered by actor, action and dates (next_cursor reads on)",
    tags,
    access: "admin",
    query: auditListQuery,
    answers: { 200: auditListAnswer },
  }),
  csv: defineRoute({
    method: "GET",
    path: "/api/audit-log.csv",
    summary: "The audit log as CSV, with the same filters (newest first)",
    tags,
    access: "admin",
    query: auditFilterQuery,
    answers: { 200: z.string().describe("CSV (text/csv)") },
  }),
  actors: defineRoute({
    method: "GET",
    path: "/api/audit-log/actors",
    summary: "Everyone the audit log names, for its filter",
    tags,
    access: "admin",
    answers: { 200: auditActorsAnswer },
  }),
  verify: defineRoute({
    method: "GET",
    path: "/api/audit-log/verify",
    summary: "Checks the audit log's hash chain from its oldest kept entry",
    tags,
    access: "admin",
    answers: { 200: auditVerifyAnswer },
  }),
};
