import { randomUUID } from "node:crypto";
import type { DomainEvent } from "@cove/contract/events.ts";
import {
  type createWebhookBody,
  type DeliveryEvent,
  MAX_WEBHOOKS,
  SLACK_EVENTS,
  type updateWebhookBody,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookKind,
  type WebhookWithSecretAnswer,
} from "@cove/contract/webhooks.ts";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { audit } from "../../platform/audit.ts";
import { queryRows, type Tx } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { EventContext } from "../../platform/events.ts";
import { recordId } from "../../platform/ids.ts";
import type { Secrets } from "../../platform/secrets.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { checkedAddress, checkUrlShape, type OutboundOptions, UrlRefused } from "./webhooks.http.ts";
import { capped, type DeliveryPayload, deliveryData, deliveryEventOf, organizationSlug } from "./webhooks.payloads.ts";
import {
  deliveryById,
  findDelivery,
  findWebhookRow,
  insertDeliveries,
  listDeliveries,
  listWebhookRows,
  subscribedWebhooks,
  toWebhook,
} from "./webhooks.queries.ts";
import { newSecret, ROLL_OVERLAP_MS } from "./webhooks.signature.ts";

/** What the service needs besides the request: the key that seals secrets and the outbound rules. */
export interface WebhooksDeps {
  secrets: Secrets;
  outbound: OutboundOptions;
  /** Called once a delivery is added outside an event (a test, a redelivery): the worker looks at once. */
  wake: () => void;
}

const WEBHOOK = "Webhook";
const DELIVERY = "Delivery";
const SLACK_HOSTS = new Set(["hooks.slack.com", "hooks.slack-gov.com"]);

const invalid = (path: string, message: string) => new AppError("VALIDATION_ERROR", message, [{ path, message }]);

/** A URL an endpoint may have: its shape, Slack's own host for Slack, and no internal address it resolves to now. */
async function checkedUrl(kind: WebhookKind, text: string, outbound: OutboundOptions): Promise<string> {
  try {
    const url = checkUrlShape(text, outbound.allowPrivateHosts);
    if (kind === "slack" && !outbound.allowPrivateHosts && !SLACK_HOSTS.has(url.hostname)) {
      throw new UrlRefused("Paste the incoming-webhook URL Slack gave you: it starts with https://hooks.slack.com/.");
    }
    // A name that does not resolve now may later: only an internal address is refused here (and at every delivery).
    await checkedAddress(url.hostname, outbound).catch((err: unknown) => {
      if (err instanceof UrlRefused && !/could not be found/.test(err.message)) throw err;
    });
    return url.href;
  } catch (err) {
    if (err instanceof UrlRefused) throw invalid("url", err.message);
    throw err;
  }
}

function checkEvents(kind: WebhookKind, events: DeliveryEvent[]): DeliveryEvent[] {
  const allowed: readonly string[] = kind === "slack" ? SLACK_EVENTS : WEBHOOK_EVENTS;
  const wrong = events.filter((e) => !allowed.includes(e));
  if (wrong.length > 0) {
    throw invalid(
      "events",
      `${kind === "slack" ? "Slack" : "A webhook"} cannot send ${wrong.join(", ")}: choose among ${allowed.join(", ")}.`,
    );
  }
  return events;
}

async function webhookOf(ctx: Ctx, id: string, lock = false) {
  const row = await findWebhookRow(ctx.db, ctx.orgId, recordId(WEBHOOK, id), lock);
  if (!row) throw notFound(WEBHOOK);
  return row;
}

export async function listWebhooks(ctx: Ctx): Promise<{ webhooks: Webhook[] }> {
  return { webhooks: (await listWebhookRows(ctx.db, ctx.orgId)).map(toWebhook) };
}

export async function createWebhook(
  ctx: Ctx,
  deps: WebhooksDeps,
  input: z.output<typeof createWebhookBody>,
): Promise<WebhookWithSecretAnswer> {
  const url = await checkedUrl(input.kind, input.url, deps.outbound);
  const events = checkEvents(input.kind, input.events);
  // The organization's row lock: the count holds until this one is in.
  await ctx.db.execute(sql`select 1 from organizations where id = ${ctx.orgId} for no key update`);
  const [count] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from webhooks where organization_id = ${ctx.orgId}`,
  );
  if ((count?.n ?? 0) >= MAX_WEBHOOKS) {
    throw new AppError("CONFLICT", `Your organization has ${MAX_WEBHOOKS} webhooks: delete one before adding another.`);
  }
  const id = randomUUID();
  const secret = newSecret();
  await ctx.db.execute(
    sql`insert into webhooks (id, organization_id, kind, url, events, enabled, secret_sealed)
        values (${id}, ${ctx.orgId}, ${input.kind}, ${url}, ${`{${events.join(",")}}`}::text[], ${input.enabled},
                ${deps.secrets.seal(secret, id)})`,
  );
  await audit(ctx, "webhook.created", auditObject({ id, kind: input.kind, url }), { events, enabled: input.enabled });
  return { webhook: toWebhook(await webhookOf(ctx, id)), secret };
}

/** How the audit log names an endpoint: its kind and host, never its path (a Slack URL's path is its credential). */
function auditObject(row: { id: string; kind: string; url: string }) {
  return { type: row.kind === "slack" ? "slack" : "webhook", id: row.id, label: new URL(row.url).host };
}

export async function updateWebhook(
  ctx: Ctx,
  deps: WebhooksDeps,
  id: string,
  input: z.output<typeof updateWebhookBody>,
): Promise<{ webhook: Webhook }> {
  const row = await webhookOf(ctx, id, true);
  const url = input.url === undefined ? row.url : await checkedUrl(row.kind, input.url, deps.outbound);
  const events = input.events === undefined ? row.events : checkEvents(row.kind, input.events);
  const enabled = input.enabled ?? row.enabled;
  await ctx.db.execute(
    sql`update webhooks set url = ${url}, events = ${`{${events.join(",")}}`}::text[], enabled = ${enabled},
               disabled_reason = ${enabled ? null : row.disabled_reason}, updated_at = now()
        where organization_id = ${ctx.orgId} and id = ${row.id}`,
  );
  await audit(ctx, "webhook.changed", auditObject({ ...row, url }), { events, enabled });
  return { webhook: toWebhook(await webhookOf(ctx, row.id)) };
}

export async function deleteWebhook(ctx: Ctx, id: string): Promise<{ webhook: Webhook }> {
  const row = await webhookOf(ctx, id, true);
  await ctx.db.execute(sql`delete from webhooks where organization_id = ${ctx.orgId} and id = ${row.id}`);
  await audit(ctx, "webhook.deleted", auditObject(row));
  return { webhook: toWebhook(row) };
}

/** A new secret, answered once; the one before it keeps signing for 24 hours beside it. */
export async function rollSecret(ctx: Ctx, deps: WebhooksDeps, id: string): Promise<WebhookWithSecretAnswer> {
  const row = await webhookOf(ctx, id, true);
  if (row.kind === "slack") throw new AppError("BAD_REQUEST", "Slack deliveries are not signed: there is no secret.");
  const secret = newSecret();
  await ctx.db.execute(
    sql`update webhooks set secret_sealed = ${deps.secrets.seal(secret, row.id)},
               previous_secret_sealed = ${row.secret_sealed},
               previous_secret_expires_at = ${new Date(Date.now() + ROLL_OVERLAP_MS).toISOString()}::timestamptz,
               updated_at = now()
        where organization_id = ${ctx.orgId} and id = ${row.id}`,
  );
  await audit(ctx, "webhook.secret_rolled", auditObject(row));
  return { webhook: toWebhook(await webhookOf(ctx, row.id)), secret };
}

export async function webhookDeliveries(ctx: Ctx, id: string): Promise<{ deliveries: WebhookDelivery[] }> {
  const row = await webhookOf(ctx, id);
  return { deliveries: await listDeliveries(ctx.db, ctx.orgId, row.id) };
}

const turnedOff = () => new AppError("CONFLICT", "This webhook is off: turn it on before sending to it.");

/** "Send a test event": a webhook.test delivery, sent at once like any other. */
export async function sendTest(ctx: Ctx, deps: WebhooksDeps, id: string): Promise<{ delivery: WebhookDelivery }> {
  const row = await webhookOf(ctx, id);
  if (!row.enabled) throw turnedOff();
  const payload: DeliveryPayload = {
    id: `evt_test_${randomUUID()}`,
    type: "webhook.test",
    created_at: new Date().toISOString(),
    organization: { slug: await organizationSlug(ctx.db, ctx.orgId) },
    data: { webhook: { id: row.id, url: row.url } },
  };
  return addDelivery(ctx, deps, row.id, payload);
}

/** "Send again": the same payload (same event id) as a new delivery, sent at once. */
export async function redeliver(
  ctx: Ctx,
  deps: WebhooksDeps,
  id: string,
  deliveryId: string,
): Promise<{ delivery: WebhookDelivery }> {
  const row = await webhookOf(ctx, id);
  const found = await findDelivery(ctx.db, ctx.orgId, row.id, recordId(DELIVERY, deliveryId));
  if (!found) throw notFound(DELIVERY);
  if (!row.enabled) throw turnedOff();
  return addDelivery(ctx, deps, row.id, found.payload as DeliveryPayload);
}

async function addDelivery(ctx: Ctx, deps: WebhooksDeps, webhookId: string, payload: DeliveryPayload) {
  const [deliveryId] = await insertDeliveries(ctx.db, ctx.orgId, [webhookId], {
    eventId: payload.id,
    type: payload.type,
    orderingKey: null,
    payload,
  });
  const delivery = deliveryId ? await deliveryById(ctx.db, ctx.orgId, deliveryId) : null;
  if (!delivery) throw new Error("delivery insert returned nothing");
  // After the request's commit: the worker finds the row then.
  setImmediate(deps.wake);
  return { delivery };
}

/**
 * The in-transaction handler of the events webhooks send: one delivery per subscribed endpoint, written in the
 * change's own transaction (so a rolled-back change sends nothing), its data read as that change left it.
 */
export async function enqueueDeliveries(ctx: EventContext, event: DomainEvent): Promise<void> {
  const type = deliveryEventOf(event);
  if (!type) return;
  await addEventDeliveries(ctx.db, ctx.orgId, event, type);
}

export async function addEventDeliveries(db: Tx, orgId: string, event: DomainEvent, type: DeliveryEvent) {
  const endpoints = await subscribedWebhooks(db, orgId, type);
  if (endpoints.length === 0) return;
  const found = await deliveryData(db, orgId, event);
  if (!found) return;
  const payload = capped({
    id: `evt_${event.id}`,
    type,
    created_at: event.occurred_at,
    organization: { slug: await organizationSlug(db, orgId) },
    data: found.data,
  });
  await insertDeliveries(
    db,
    orgId,
    endpoints.map((e) => e.id),
    { eventId: payload.id, type, orderingKey: found.orderingKey, payload },
  );
}
