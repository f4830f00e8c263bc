import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, refCascade, timestamps, timestamptz } from "./columns.ts";
import { organizationId, tenantRow } from "./organizations.ts";

/**
 * Outgoing webhooks (modules/webhooks): an organization's endpoints (a signed JSON POST per event, or a Slack
 * incoming-webhook message) and their deliveries, one row per event and endpoint, retried by the webhooks worker.
 * docs/decisions/2026-11-29-webhooks.md.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    ...tenantRow(),
    /** webhook: Cove's signed JSON; slack: a Slack incoming-webhook message. */
    kind: text("kind", { enum: ["webhook", "slack"] }).notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why Cove turned it off (every retry of a delivery failed), or null. */
    disabledReason: text("disabled_reason"),
    /** The signing secret, sealed with platform/secrets.ts and bound to the webhook's id. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret before the last roll, which also signs until previous_secret_expires_at. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamptz("previous_secret_expires_at"),
    ...timestamps(),
  },
  (t) => [index("webhooks_org_idx").on(t.organizationId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    /** Insertion order: deliveries of one ticket to one endpoint go out in this order. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    organizationId: organizationId(),
    webhookId: refCascade("webhook_id", () => webhooks.id).notNull(),
    /** The payload's id: evt_<outbox id> (the same for a redelivery of it), or a test event's own. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** "ticket:<id>" or "chat:<id>": a delivery waits for the earlier pending ones with the same key; null: none. */
    orderingKey: text("ordering_key"),
    /** The JSON body sent (without signature; the signature is made at each attempt). */
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    /** A worker holds it until then (a crashed worker's claim lapses and another takes it). */
    claimedUntil: timestamptz("claimed_until"),
    lastAttemptAt: timestamptz("last_attempt_at"),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    response: text("response"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.seq),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_order_idx").on(t.webhookId, t.orderingKey, t.seq).where(sql`status = 'pending'`),
  ],
);
