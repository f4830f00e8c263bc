import { z } from "zod";
import { defineRoute } from "./routes.ts";

/**
 * Outgoing webhooks and the Slack integration (Settings -> Integrations, admins). An endpoint receives a signed POST
 * of { id, type, created_at, organization: { slug }, data } for each event it subscribes to; a Slack endpoint receives
 * a message in Slack's incoming-webhook format instead. See docs/webhooks.md.
 */

/** The events a webhook may subscribe to, as they are named in deliveries. */
export const WEBHOOK_EVENTS = [
  "ticket.created",
  "ticket.updated",
  "ticket.solved",
  "comment.added",
  "chat.started",
  "chat.message",
  "chat.handed_off",
  "contact.created",
  "csat.answered",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The events Slack can post about: new tickets, hand-offs to the team and SLA breaches. */
export const SLACK_EVENTS = ["ticket.created", "chat.handed_off", "ticket.sla_breached"] as const;
export type SlackEvent = (typeof SLACK_EVENTS)[number];

/** Every event type a delivery may carry ("webhook.test" is the "send a test event" button's). */
export const DELIVERY_EVENTS = [...WEBHOOK_EVENTS, "ticket.sla_breached", "webhook.test"] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

export const WEBHOOK_KINDS = ["webhook", "slack"] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** Endpoints an organization may have at once. */
export const MAX_WEBHOOKS = 20;
export const WEBHOOK_URL_MAX = 2000;

/** The header names a receiver reads. */
export const SIGNATURE_HEADER = "Cove-Signature";
export const DELIVERY_ID_HEADER = "Cove-Delivery-Id";

const urlField = z
  .string({ error: "URL is required" })
  .trim()
  .min(1, "URL is required")
  .max(WEBHOOK_URL_MAX, `The URL must be at most ${WEBHOOK_URL_MAX} characters`);

const enabledField = z.boolean({ error: "enabled must be true or false" });

const eventsField = z
  .array(
    z.enum(DELIVERY_EVENTS, {
      error: `Choose events among: ${[...new Set([...WEBHOOK_EVENTS, ...SLACK_EVENTS])].join(", ")}`,
    }),
    {
      error: "events must be a list of event names",
    },
  )
  .min(1, "Choose at least one event")
  .max(DELIVERY_EVENTS.length)
  .transform((list) => [...new Set(list)]);

export const createWebhookBody = z.object({
  kind: z.enum(WEBHOOK_KINDS, { error: "kind must be webhook or slack" }).default("webhook"),
  url: urlField,
  events: eventsField,
  enabled: enabledField.default(true),
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({ url: urlField.optional(), events: eventsField.optional(), enabled: enabledField.optional() })
  .refine((b) => Object.keys(b).length > 0, "Nothing to change: send url, events or enabled");
export type UpdateWebhookBody = z.input<typeof updateWebhookBody>;

export const webhook = z.object({
  id: z.uuid(),
  kind: z.enum(WEBHOOK_KINDS),
  url: z.string(),
  events: z.array(z.enum(DELIVERY_EVENTS)),
  enabled: z.boolean(),
  /** Why Cove turned it off (its deliveries kept failing), or null. */
  disabled_reason: z.string().nullable(),
  /** Until when the secret before the last roll still signs deliveries too, or null. */
  previous_secret_expires_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
export type Webhook = z.infer<typeof webhook>;

export const webhookAnswer = z.object({ webhook });
export const webhookListAnswer = z.object({ webhooks: z.array(webhook) });
/** The secret is in this answer only (creating a webhook, rolling its secret). */
export const webhookWithSecretAnswer = z.object({ webhook, secret: z.string() });
export type WebhookWithSecretAnswer = z.infer<typeof webhookWithSecretAnswer>;

export const webhookParams = z.object({ id: z.string() });
export const deliveryParams = z.object({ id: z.string(), deliveryId: z.string() });

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const webhookDelivery = z.object({
  id: z.uuid(),
  event_id: z.string(),
  event: z.enum(DELIVERY_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  created_at: z.iso.datetime(),
  last_attempt_at: z.iso.datetime().nullable(),
  next_attempt_at: z.iso.datetime().nullable(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  /** The first 2 KB of the receiver's answer. */
  response: z.string().nullable(),
  /** Why the last attempt failed when there was no answer (timeout, refused address...). */
  error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export const deliveryListAnswer = z.object({ deliveries: z.array(webhookDelivery) });
export const deliveryAnswer = z.object({ delivery: webhookDelivery });

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["webhooks"];

/** Outgoing webhooks and the Slack integration: the admins' routes (Settings -> Integrations). docs/webhooks.md. */
export const webhooksApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/webhooks",
    summary: "The organization's webhooks and Slack integrations",
    tags,
    access: "admin",
    answers: { 200: webhookListAnswer },
  }),
  create: defineRoute({
    method: "POST",
    path: "/api/webhooks",
    summary:
      "Add a webhook ({ url, events, enabled }) or a Slack integration (kind slack): its secret is in this answer only",
    tags,
    access: "admin",
    body: createWebhookBody,
    answers: { 201: webhookWithSecretAnswer },
    // At most MAX_WEBHOOKS.
    errors: ["CONFLICT"],
  }),
  update: defineRoute({
    method: "PUT",
    path: "/api/webhooks/:id",
    summary: "Change a webhook's URL, events, or turn it on or off",
    tags,
    access: "admin",
    params: webhookParams,
    body: updateWebhookBody,
    answers: { 200: webhookAnswer },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/api/webhooks/:id",
    summary: "Delete a webhook and its delivery log",
    tags,
    access: "admin",
    params: webhookParams,
    answers: { 200: webhookAnswer },
  }),
  rollSecret: defineRoute({
    method: "POST",
    path: "/api/webhooks/:id/roll-secret",
    summary: "A new signing secret (in this answer only); the old one keeps signing beside it for 24 hours",
    tags,
    access: "admin",
    params: webhookParams,
    answers: { 200: webhookWithSecretAnswer },
  }),
  sendTest: defineRoute({
    method: "POST",
    path: "/api/webhooks/:id/test",
    summary: "Send a test event (webhook.test) now",
    tags,
    access: "admin",
    params: webhookParams,
    answers: { 202: deliveryAnswer },
    // A webhook that is off.
    errors: ["CONFLICT"],
  }),
  deliveries: defineRoute({
    method: "GET",
    path: "/api/webhooks/:id/deliveries",
    summary: "The webhook's latest deliveries: time, event, status code, duration, the first 2 KB of the answer",
    tags,
    access: "admin",
    params: webhookParams,
    answers: { 200: deliveryListAnswer },
  }),
  redeliver: defineRoute({
    method: "POST",
    path: "/api/webhooks/:id/deliveries/:deliveryId/redeliver",
    summary: "Send a delivery's event again, as a new delivery",
    tags,
    access: "admin",
    params: deliveryParams,
    answers: { 202: deliveryAnswer },
    errors: ["CONFLICT"],
  }),
};
