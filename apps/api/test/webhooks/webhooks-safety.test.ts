import type { Webhook, WebhookDelivery } from "@cove/contract/webhooks.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ResolvedAddress, systemResolver } from "../../src/modules/webhooks/webhooks.http.ts";
import { client, createTestApp, naughtySample, registerOrg, type TestApp, xssPayloads } from "../helpers.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

/**
 * What webhooks will not reach with WEBHOOKS_ALLOW_PRIVATE_HOSTS off: every internal address, written any way, on
 * creation and on the address each delivery resolves to (DNS rebinding); http; naughty and XSS URLs.
 */

let t: TestApp;
let receiver: Receiver;
/** Host names this test resolves itself; any other goes to the system's resolver (localhost among them). */
const names = new Map<string, ResolvedAddress[]>();

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({
    webhooks: {
      allowPrivateHosts: false,
      retrySchedule: [60],
      pollMs: 50,
      timeoutMs: 1500,
      resolve: async (host) => names.get(host) ?? systemResolver(host),
    },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const call = client(() => t.app, { newAddressEachCall: true });
const v4 = (address: string) => ({ address, family: 4 });

const INTERNAL_URLS = [
  "https://127.0.0.1/hook",
  "https://127.1.2.3/hook",
  "https://2130706433/hook",
  "https://0x7f.1/hook",
  "https://10.0.0.1/hook",
  "https://172.16.5.4/hook",
  "https://192.168.1.1/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://169.254.1.1/hook",
  "https://0.0.0.0/hook",
  "https://[::1]/hook",
  "https://[::]/hook",
  "https://[fc00::1]/hook",
  "https://[fd00:ec2::254]/hook",
  "https://[fe80::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[::ffff:10.0.0.1]/hook",
  "https://[::ffff:169.254.169.254]/hook",
  "https://[::ffff:7f00:1]/hook",
  "https://localhost/hook",
  "https://private.example/hook",
  "https://mixed.example/hook",
];

describe("webhooks' safety", () => {
  it("refuses every internal address on creation, a name resolving to one among them, with one clear message", async () => {
    names.set("private.example", [v4("10.1.2.3")]);
    names.set("mixed.example", [v4("93.184.216.34"), v4("127.0.0.1")]);
    const org = await registerOrg(t.app);
    for (const url of INTERNAL_URLS) {
      const res = await call(org, "POST", "/api/webhooks", { url, events: ["ticket.created"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe(
        "Cove does not send webhooks to private, local or internal network addresses.",
      );
    }
    // Changing a URL to an internal one is refused the same way.
    names.set("public.example", [v4("93.184.216.34")]);
    const made = await call(org, "POST", "/api/webhooks", {
      url: "https://public.example/hook",
      events: ["ticket.created"],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { webhook: Webhook }).webhook.id;
    const moved = await call(org, "PUT", `/api/webhooks/${id}`, { url: "https://[::ffff:192.168.0.1]/" });
    expect(moved.statusCode).toBe(400);
    expect((await call(org, "GET", "/api/webhooks")).json()).toMatchObject({
      webhooks: [{ url: "https://public.example/hook" }],
    });
  });

  it("refuses http, and Slack URLs that are not Slack's, when private hosts are not allowed", async () => {
    const org = await registerOrg(t.app);
    const http = await call(org, "POST", "/api/webhooks", {
      url: "http://example.com/hook",
      events: ["ticket.created"],
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().error).toBe("The URL must start with https://.");
    const slack = await call(org, "POST", "/api/webhooks", {
      kind: "slack",
      url: "https://example.com/services/T/B/x",
      events: ["ticket.created"],
    });
    expect(slack.statusCode).toBe(400);
    expect(slack.json().error).toMatch(/hooks\.slack\.com/);
  });

  it("checks the address at every delivery: a name that now resolves to 127.0.0.1 is refused, nothing is sent", async () => {
    names.set("rebind.example", [v4("93.184.216.34")]);
    const org = await registerOrg(t.app);
    const made = await call(org, "POST", "/api/webhooks", {
      url: "https://rebind.example/hook",
      events: ["ticket.created"],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { webhook: Webhook }).webhook.id;
    names.set("rebind.example", [v4("127.0.0.1")]);
    const before = receiver.received.length;
    const sent = await call(org, "POST", `/api/webhooks/${id}/test`);
    expect(sent.statusCode).toBe(202);
    let delivery: WebhookDelivery | undefined;
    for (let i = 0; i < 300 && !delivery?.error; i++) {
      const res = await call(org, "GET", `/api/webhooks/${id}/deliveries`);
      delivery = (res.json() as { deliveries: WebhookDelivery[] }).deliveries[0];
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(delivery).toMatchObject({
      status: "pending",
      status_code: null,
      error: "Cove does not send webhooks to private, local or internal network addresses.",
    });
    expect(receiver.received.length).toBe(before);
  });

  it("answers naughty strings and XSS payloads as URLs with a 4xx, never a 5xx, and stores no markup", async () => {
    const org = await registerOrg(t.app);
    const urls = [
      ...xssPayloads().slice(0, 60),
      ...naughtySample().slice(0, 60),
      "javascript:alert(1)",
      "https://<script>/",
    ];
    for (const url of urls) {
      const res = await call(org, "POST", "/api/webhooks", { url, events: ["ticket.created"] });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await call(org, "GET", "/api/webhooks")).json()).toEqual({ webhooks: [] });
  });
});
