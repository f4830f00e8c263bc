import type { DeliveryEvent, Webhook, WebhookDelivery, WebhookKind } from "@cove/contract/webhooks.ts";
import { sql } from "drizzle-orm";
import { type Queryable, queryRows } from "../../platform/db.ts";

/** The webhooks module's statements on its own tables (webhooks, webhook_deliveries). */

export interface WebhookRow {
  id: string;
  organization_id: string;
  kind: WebhookKind;
  url: string;
  events: DeliveryEvent[];
  enabled: boolean;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | string | null;
  created_at: Date | string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  kind: r.kind,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  disabled_reason: r.disabled_reason,
  previous_secret_expires_at:
    r.previous_secret_expires_at && new Date(r.previous_secret_expires_at) > new Date()
      ? iso(r.previous_secret_expires_at)
      : null,
  created_at: new Date(r.created_at).toISOString(),
});

export async function listWebhookRows(db: Queryable, orgId: string): Promise<WebhookRow[]> {
  return queryRows<WebhookRow>(
    db,
    sql`select * from webhooks where organization_id = ${orgId} order by created_at, id limit 100`,
  );
}

export async function findWebhookRow(db: Queryable, orgId: string, id: string, lock = false) {
  const [row] = await queryRows<WebhookRow>(
    db,
    sql`select * from webhooks where organization_id = ${orgId} and id = ${id} ${lock ? sql`for update` : sql``}`,
  );
  return row ?? null;
}

/** The enabled endpoints of an organization subscribed to type. */
export function subscribedWebhooks(db: Queryable, orgId: string, type: DeliveryEvent) {
  return queryRows<{ id: string }>(
    db,
    sql`select id from webhooks where organization_id = ${orgId} and enabled and ${type} = any(events)`,
  );
}

export async function insertDeliveries(
  db: Queryable,
  orgId: string,
  webhookIds: string[],
  delivery: { eventId: string; type: DeliveryEvent; orderingKey: string | null; payload: unknown },
): Promise<string[]> {
  if (webhookIds.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_deliveries (organization_id, webhook_id, event_id, event_type, ordering_key, payload)
        select ${orgId}, w, ${delivery.eventId}, ${delivery.type}, ${delivery.orderingKey},
               ${JSON.stringify(delivery.payload)}::jsonb
        from unnest(${`{${webhookIds.join(",")}}`}::uuid[]) w
        returning id`,
  );
  return rows.map((r) => r.id);
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: DeliveryEvent;
  status: WebhookDelivery["status"];
  attempts: number;
  created_at: Date | string;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string;
  status_code: number | null;
  duration_ms: number | null;
  response: string | null;
  error: string | null;
}

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  event_id: r.event_id,
  event: r.event_type,
  status: r.status,
  attempts: r.attempts,
  created_at: new Date(r.created_at).toISOString(),
  last_attempt_at: iso(r.last_attempt_at),
  next_attempt_at: r.status === "pending" ? iso(r.next_attempt_at) : null,
  status_code: r.status_code,
  duration_ms: r.duration_ms,
  response: r.response,
  error: r.error,
});

const DELIVERY_COLUMNS = sql.raw(
  "id, event_id, event_type, status, attempts, created_at, last_attempt_at, next_attempt_at, status_code, duration_ms, response, error",
);

/** The endpoint's latest deliveries, newest first. */
export async function listDeliveries(db: Queryable, orgId: string, webhookId: string, limit = 100) {
  const rows = await queryRows<DeliveryRow>(
    db,
    sql`select ${DELIVERY_COLUMNS} from webhook_deliveries
        where organization_id = ${orgId} and webhook_id = ${webhookId} order by seq desc limit ${limit}`,
  );
  return rows.map(toDelivery);
}

export async function findDelivery(db: Queryable, orgId: string, webhookId: string, id: string) {
  const [row] = await queryRows<DeliveryRow & { payload: unknown; ordering_key: string | null }>(
    db,
    sql`select ${DELIVERY_COLUMNS}, payload, ordering_key from webhook_deliveries
        where organization_id = ${orgId} and webhook_id = ${webhookId} and id = ${id}`,
  );
  return row ? { delivery: toDelivery(row), payload: row.payload } : null;
}

export async function deliveryById(db: Queryable, orgId: string, id: string) {
  const [row] = await queryRows<DeliveryRow>(
    db,
    sql`select ${DELIVERY_COLUMNS} from webhook_deliveries where organization_id = ${orgId} and id = ${id}`,
  );
  return row ? toDelivery(row) : null;
}
