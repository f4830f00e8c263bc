import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local HTTP server that speaks the part of Stripe's API Cove uses (customers, payment methods, prices,
 * subscriptions, invoices), so the real `stripe` SDK runs against it: Stripe cannot be reached from here. It keeps its
 * objects in memory, answers Stripe's error shapes (a declined card is a 402 card_error), and builds webhook events
 * signed with the SDK's own test-header helper. Test cards behave as in Stripe's test mode.
 */

type Obj = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

const DECLINES: Record<string, { code: string; message: string }> = {
  "0002": { code: "card_declined", message: "Your card was declined." },
  "9995": { code: "insufficient_funds", message: "Your card has insufficient funds." },
};

/** Parses Stripe's form encoding (a[b][0]=c) into nested objects and arrays. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const [rawKey, rawValue = ""] = pair.split("=");
    const key = decodeURIComponent((rawKey ?? "").replace(/\+/g, " "));
    const value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
      return keys.sort((a, b) => +a - +b).map((k) => arrays(o[k]));
    return Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  };
  return arrays(root) as Params;
}

const addMonth = (s: number) => {
  const d = new Date(s * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
};

export interface FakeStripe {
  api: { host: string; port: number; protocol: "http" };
  webhookSecret: string;
  objects: Map<string, Obj>;
  /** What Stripe.js creates in the browser from a card number. */
  paymentMethod(number: string): string;
  /** What Stripe.js does on confirmCardPayment: the payment is authenticated and the invoice paid. */
  confirm(clientSecret: string): void;
  /** The end of a period: a new invoice, paid with the default card or failed (past_due). */
  renew(subscriptionId: string, ok: boolean): Obj;
  /** Retries the open invoices with the default card. */
  payOpen(subscriptionId: string): void;
  /** The end of the period of a subscription set to cancel. */
  end(subscriptionId: string): void;
  /** A webhook delivery: body and Stripe-Signature header, signed with the SDK's helper. */
  event(
    type: string,
    objectId: string,
    opts?: { secret?: string; created?: number },
  ): { body: string; signature: string };
  requests: string[];
  /**
   * Holds the answer to the next request of this method and path: read from the objects when it arrives, sent when
   * released (a slow answer, overtaken by later requests). asked resolves once the request has been answered.
   */
  hold(method: string, path: string): { asked: Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const objects = new Map<string, Obj>();
  const requests: string[] = [];
  const now = () => Math.floor(Date.now() / 1000);
  let n = 0;
  const id = (prefix: string) => `${prefix}_fake${(++n).toString().padStart(6, "0")}${randomBytes(3).toString("hex")}`;
  const put = (o: Obj) => {
    objects.set(o.id, o);
    return o;
  };
  const get = (key: string) => objects.get(key);

  class StripeFail extends Error {
    constructor(
      readonly status: number,
      readonly body: object,
    ) {
      super("stripe error");
    }
  }
  const missing = (what: string) =>
    new StripeFail(404, {
      error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` },
    });

  const pmOf = (pmId: unknown) => {
    const pm = get(String(pmId));
    if (!pm) throw missing("payment_method");
    return pm;
  };
  const last4 = (pm: Obj) => (pm.card as { last4: string }).last4;

  function invoiceFor(sub: Obj, start: number, paid: boolean, secret: string | null): Obj {
    const price = (sub.items as { data: { price: { unit_amount: number; lookup_key: string } }[] }).data[0]?.price;
    return put({
      id: id("in"),
      object: "invoice",
      customer: sub.customer,
      status: paid ? "paid" : "open",
      amount_due: price?.unit_amount ?? 0,
      amount_paid: paid ? (price?.unit_amount ?? 0) : 0,
      currency: "usd",
      number: `FAKE-${n}`,
      created: now(),
      period_start: start,
      period_end: addMonth(start),
      hosted_invoice_url: `https://invoice.stripe.test/${n}`,
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: {} } },
      confirmation_secret: secret ? { client_secret: secret, type: "payment_intent" } : null,
      lines: {
        object: "list",
        has_more: false,
        data: [
          {
            id: id("il"),
            object: "line_item",
            description: `1 × ${price?.lookup_key ?? "plan"} (at $${((price?.unit_amount ?? 0) / 100).toFixed(2)} / month)`,
            amount: price?.unit_amount ?? 0,
          },
        ],
      },
    });
  }
  const charges = (pm: Obj) => last4(pm) !== "0341";

  function expandOn(o: Obj, expand: unknown): Obj {
    const wanted = Array.isArray(expand) ? expand.map(String) : [];
    if (wanted.some((e) => e.startsWith("latest_invoice")) && typeof o.latest_invoice === "string") {
      return { ...o, latest_invoice: get(o.latest_invoice) ?? o.latest_invoice };
    }
    return o;
  }

  function route(
    method: string,
    path: string,
    p: Params,
  ): Obj | { object: "list"; data: Obj[]; has_more: false; url: string } {
    const parts = path.split("/").filter(Boolean); // v1, resource, id?, action?
    const [, resource, key, action] = parts;
    if (resource === "customers" && method === "POST" && !key) {
      return put({
        id: id("cus"),
        object: "customer",
        name: p.name,
        email: p.email,
        metadata: p.metadata ?? {},
        invoice_settings: {},
      });
    }
    if (resource === "customers" && method === "POST" && key) {
      const c = get(key);
      if (!c) throw missing("customer");
      return put({
        ...c,
        ...p,
        invoice_settings: { ...(c.invoice_settings as object), ...(p.invoice_settings as object) },
      });
    }
    if (resource === "payment_methods" && key && action === "attach") {
      const pm = pmOf(key);
      const decline = DECLINES[last4(pm)];
      if (decline) {
        throw new StripeFail(402, {
          error: { type: "card_error", code: decline.code, decline_code: decline.code, message: decline.message },
        });
      }
      return put({ ...pm, customer: p.customer });
    }
    if (resource === "payment_methods" && method === "GET" && key) return pmOf(key);
    if (resource === "prices" && method === "GET") {
      const keys = (p.lookup_keys as string[] | undefined) ?? [];
      const data = [...objects.values()].filter((o) => o.object === "price" && keys.includes(String(o.lookup_key)));
      return { object: "list", data, has_more: false, url: "/v1/prices" };
    }
    if (resource === "prices" && method === "POST") {
      return put({
        id: id("price"),
        object: "price",
        lookup_key: p.lookup_key,
        unit_amount: Number(p.unit_amount),
        currency: p.currency,
        recurring: { interval: "month" },
        product: id("prod"),
        active: true,
      });
    }
    if (resource === "subscriptions" && method === "POST" && !key) {
      const items = p.items as { price: string }[];
      const price = get(String(items[0]?.price));
      if (!price) throw missing("price");
      const pm = pmOf(p.default_payment_method);
      const start = now();
      const sub = put({
        id: id("sub"),
        object: "subscription",
        customer: p.customer,
        status: "incomplete",
        cancel_at_period_end: false,
        ended_at: null,
        metadata: p.metadata ?? {},
        default_payment_method: pm.id,
        items: {
          object: "list",
          data: [
            {
              id: id("si"),
              object: "subscription_item",
              price,
              current_period_start: start,
              current_period_end: addMonth(start),
            },
          ],
        },
        latest_invoice: null,
      });
      const needsAction = last4(pm) === "3155";
      const paid = !needsAction && charges(pm);
      const invoice = invoiceFor(
        sub,
        start,
        paid,
        needsAction || !paid ? `pi_fake_${n}_secret_${randomBytes(6).toString("hex")}` : null,
      );
      const saved = put({ ...sub, status: paid ? "active" : "incomplete", latest_invoice: invoice.id });
      return expandOn(saved, p.expand);
    }
    if (resource === "subscriptions" && key && method === "GET") {
      const sub = get(key);
      if (!sub) throw missing("subscription");
      return expandOn(sub, p.expand);
    }
    if (resource === "subscriptions" && key && method === "POST") {
      const sub = get(key);
      if (!sub) throw missing("subscription");
      const next: Obj = { ...sub };
      if (p.cancel_at_period_end !== undefined) next.cancel_at_period_end = p.cancel_at_period_end === "true";
      if (p.default_payment_method) next.default_payment_method = p.default_payment_method;
      if (p.items) {
        const wanted = (p.items as { id?: string; price: string }[])[0];
        const price = get(String(wanted?.price));
        if (!price) throw missing("price");
        const items = sub.items as { data: Record<string, unknown>[] };
        next.items = { ...items, data: items.data.map((i) => ({ ...i, price })) };
      }
      if (p.metadata) next.metadata = { ...(sub.metadata as object), ...(p.metadata as object) };
      return put(next);
    }
    if (resource === "subscriptions" && key && method === "DELETE") {
      const sub = get(key);
      if (!sub) throw missing("subscription");
      return put({ ...sub, status: sub.status === "incomplete" ? "incomplete_expired" : "canceled", ended_at: now() });
    }
    if (resource === "invoices" && method === "GET" && key) {
      const inv = get(key);
      if (!inv) throw missing("invoice");
      return inv;
    }
    if (resource === "invoices" && method === "GET") {
      const data = [...objects.values()].filter(
        (o) =>
          o.object === "invoice" &&
          (o.parent as { subscription_details: { subscription: string } }).subscription_details.subscription ===
            p.subscription &&
          (!p.status || o.status === p.status),
      );
      return { object: "list", data, has_more: false, url: "/v1/invoices" };
    }
    if (resource === "invoices" && key && action === "void") {
      const inv = get(key);
      if (!inv) throw missing("invoice");
      if (inv.status !== "open") {
        throw new StripeFail(400, {
          error: {
            type: "invalid_request_error",
            message: "You can only pass in open invoices. This invoice isn't open.",
          },
        });
      }
      return put({ ...inv, status: "void" });
    }
    if (resource === "invoices" && key && action === "pay") {
      const inv = get(key);
      if (!inv) throw missing("invoice");
      const subId = (inv.parent as { subscription_details: { subscription: string } }).subscription_details
        .subscription;
      const sub = get(subId);
      const pm = sub ? pmOf(sub.default_payment_method) : null;
      if (!pm || !charges(pm)) {
        throw new StripeFail(402, {
          error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
        });
      }
      if (sub) put({ ...sub, status: "active" });
      return put({ ...inv, status: "paid", amount_paid: inv.amount_due });
    }
    throw new StripeFail(404, {
      error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` },
    });
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  const holds: { method: string; path: string; asked: () => void; released: Promise<void> }[] = [];

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const body = await readBody(req);
    requests.push(`${req.method} ${url.pathname}`);
    const params = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
    res.setHeader("content-type", "application/json");
    res.setHeader("request-id", `req_${randomBytes(6).toString("hex")}`);
    if (req.headers.authorization !== "Bearer sk_test_cove") {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      return;
    }
    let status = 200;
    let answer: unknown;
    try {
      answer = route(req.method ?? "GET", url.pathname, params);
    } catch (err) {
      status = err instanceof StripeFail ? err.status : 500;
      answer = err instanceof StripeFail ? err.body : { error: { type: "api_error", message: String(err) } };
    }
    const held = holds.findIndex((h) => h.method === req.method && h.path === url.pathname);
    if (held >= 0) {
      const [hold] = holds.splice(held, 1);
      hold?.asked();
      await hold?.released;
    }
    res.statusCode = status;
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const webhookSecret = "whsec_fakeSigningSecret";
  const signer = new Stripe("sk_test_cove");

  const sub = (subId: string) => {
    const s = get(subId);
    if (!s) throw new Error(`no subscription ${subId}`);
    return s;
  };

  return {
    api: { host: "127.0.0.1", port, protocol: "http" },
    webhookSecret,
    objects,
    requests,
    paymentMethod(number) {
      const digits = number.replace(/\D/g, "");
      return put({
        id: id("pm"),
        object: "payment_method",
        type: "card",
        card: {
          brand: digits.startsWith("5") ? "mastercard" : "visa",
          last4: digits.slice(-4),
          exp_month: 12,
          exp_year: 2031,
        },
        billing_details: {
          name: "Ada Lovelace",
          address: { line1: "1 Main St", line2: null, city: "Oslo", state: null, postal_code: "0150", country: "NO" },
        },
        customer: null,
      }).id;
    },
    confirm(clientSecret) {
      const inv = [...objects.values()].find(
        (o) =>
          o.object === "invoice" &&
          (o.confirmation_secret as { client_secret?: string } | null)?.client_secret === clientSecret,
      );
      if (!inv) throw new Error("no invoice for that client secret");
      // A voided invoice's payment was canceled with it: Stripe.js can no longer confirm it.
      if (inv.status !== "open") throw new Error(`the payment of a ${String(inv.status)} invoice cannot be confirmed`);
      put({ ...inv, status: "paid", amount_paid: inv.amount_due });
      const subId = (inv.parent as { subscription_details: { subscription: string } }).subscription_details
        .subscription;
      put({ ...sub(subId), status: "active" });
    },
    renew(subId, ok) {
      const s = sub(subId);
      const items = s.items as { data: { current_period_end: number }[] };
      const start = items.data[0]?.current_period_end ?? now();
      const next = {
        ...s,
        items: {
          ...(s.items as object),
          data: items.data.map((i) => ({ ...i, current_period_start: start, current_period_end: addMonth(start) })),
        },
      };
      const invoice = invoiceFor(next, start, ok, null);
      return put({ ...next, status: ok ? "active" : "past_due", latest_invoice: invoice.id });
    },
    payOpen(subId) {
      for (const o of objects.values()) {
        if (
          o.object === "invoice" &&
          o.status === "open" &&
          (o.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === subId
        ) {
          put({ ...o, status: "paid", amount_paid: o.amount_due });
        }
      }
      put({ ...sub(subId), status: "active" });
    },
    end(subId) {
      put({ ...sub(subId), status: "canceled", ended_at: now(), cancel_at_period_end: false });
    },
    event(type, objectId, opts = {}) {
      const object = get(objectId);
      if (!object) throw new Error(`no object ${objectId}`);
      const payload = JSON.stringify({
        id: id("evt"),
        object: "event",
        api_version: Stripe.API_VERSION,
        created: opts.created ?? now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      });
      return {
        body: payload,
        signature: signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? webhookSecret }),
      };
    },
    hold(method, path) {
      let asked = () => {};
      let release = () => {};
      const answered = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ method, path, asked, released });
      return { asked: answered, release };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
