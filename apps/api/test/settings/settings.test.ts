import { createHash } from "node:crypto";
import type { ApiKey, CreateApiKeyAnswer, GeneralSettings } from "@cove/contract/settings.ts";
import { eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { findApiKeyByHash } from "../../src/modules/api-keys/api-keys.service.ts";
import { LIFECYCLE_QUEUE } from "../../src/modules/billing/lifecycle.ts";
import { queryRows } from "../../src/platform/db.ts";
import { addMember, client, naughtySample, registerOrg, testAppForFile } from "../helpers.ts";
import { clockAhead } from "../support/billing.ts";
import { demoOrganizationWithAdmin } from "../support/demo.ts";

const t = testAppForFile();
afterEach(() => {
  clockAhead(0);
});

const call = client(() => t.app);

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const pngUrl = `data:image/png;base64,${PNG.toString("base64")}`;

describe("Settings > General", () => {
  it("changes the name, help center address, time zone, brand colour and logo, and the help center shows them", async () => {
    const { token } = await registerOrg(t.app);
    const slug = `brand-${Date.now().toString(36)}`;
    const res = await call(token, "PUT", "/api/settings/general", {
      name: "Brandish Ltd",
      slug,
      timezone: "Europe/Paris",
      brand_color: "#FF6600",
      logo: pngUrl,
    });
    expect(res.statusCode, res.body).toBe(200);
    const general = res.json() as GeneralSettings;
    expect(general).toMatchObject({
      name: "Brandish Ltd",
      slug,
      timezone: "Europe/Paris",
      brand_color: "#ff6600",
      help_center_url: `http://cove.test/help/${slug}`,
    });
    expect(general.logo_url).toMatch(new RegExp(`^/api/public/${slug}/logo\\?v=[0-9a-f]{12}$`));

    const branding = await t.app.inject({ method: "GET", url: `/api/public/${slug}/branding` });
    expect(branding.json()).toEqual({ name: "Brandish Ltd", slug, brand_color: "#ff6600", logo_url: general.logo_url });
    const logo = await t.app.inject({ method: "GET", url: general.logo_url ?? "" });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    // The help center's own answer is found at the new address.
    expect((await t.app.inject({ method: "GET", url: `/api/public/${slug}/kb` })).statusCode).toBe(200);

    const removed = await call(token, "PUT", "/api/settings/general", { logo: null });
    expect(removed.json().logo_url).toBeNull();
    expect((await t.app.inject({ method: "GET", url: `/api/public/${slug}/logo` })).statusCode).toBe(404);
  });

  it("refuses a taken, reserved or malformed address, a bad colour, time zone or logo, with clear messages", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const taken = (await call(a.token, "GET", "/api/settings/general")).json().slug as string;
    const conflict = await call(b.token, "PUT", "/api/settings/general", { slug: taken });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toBe("That help center address is taken: choose another.");
    const cases: [object, RegExp][] = [
      [{ slug: "admin" }, /reserved/],
      [{ slug: "Has Spaces" }, /letters, digits and hyphens, starting and ending/],
      [{ slug: "-x-" }, /letters, digits and hyphens/],
      [{ brand_color: "red" }, /hex colour/],
      [{ timezone: "Mars/Olympus" }, /time zone/],
      [{ logo: "data:image/svg+xml;base64,PHN2Zz4=" }, /PNG, JPEG or WebP/],
      [{ logo: `data:image/png;base64,${Buffer.from("GIF89a not a png").toString("base64")}` }, /not the image type/],
      [{ name: "" }, /Organization name is required/],
      [{}, /at least one setting/],
    ];
    for (const [body, message] of cases) {
      const res = await call(b.token, "PUT", "/api/settings/general", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
  });

  it("keeps naughty strings as text in the name and the email settings", async () => {
    const { token } = await registerOrg(t.app);
    for (const text of naughtySample()
      .filter((s) => s.trim().length > 0 && s.length < 100)
      .slice(0, 40)) {
      const res = await call(token, "PUT", "/api/settings/general", { name: text });
      if (res.statusCode === 200) expect(res.json().name).toBe(text.trim());
      else expect(res.statusCode).toBe(400);
      const mail = await call(token, "PUT", "/api/settings/email", { sender_name: "", reply_to: "", signature: text });
      expect(mail.statusCode, text).toBe(200);
      expect(mail.json().signature).toBe(text);
    }
    const xss = '<img src=x onerror="alert(1)">';
    expect((await call(token, "PUT", "/api/settings/general", { name: xss })).json().name).toBe(xss);
  });

  it("admins only", async () => {
    const { user } = await registerOrg(t.app);
    const agent = await addMember(t.database, user.organizationId);
    for (const [method, url] of [
      ["GET", "/api/settings/general"],
      ["PUT", "/api/settings/general"],
      ["GET", "/api/settings/email"],
      ["PUT", "/api/settings/email"],
      ["GET", "/api/settings/api-keys"],
      ["POST", "/api/settings/api-keys"],
      ["DELETE", `/api/settings/api-keys/${user.id}`],
      ["POST", "/api/organization/export"],
      ["GET", "/api/organization/export"],
      ["DELETE", "/api/organization"],
    ] as const) {
      const res = await call(agent.token, method, url, method === "GET" ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("Only an administrator can do this.");
    }
  });
});

describe("the demo organization", () => {
  it("keeps its help center address and cannot be deleted (the public demos find it by it)", async () => {
    const { admin, ...demo } = await demoOrganizationWithAdmin(t.database);
    const moved = await call(admin.token, "PUT", "/api/settings/general", { slug: "acme-two" });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error).toBe("The demo organization's help center address cannot be changed.");
    const deleted = await call(admin.token, "DELETE", "/api/organization", { confirm: demo.name });
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json().error).toBe("The demo organization cannot be deleted.");
  });
});

describe("Settings > Email Settings", () => {
  it("stores the sender name, reply-to and signature", async () => {
    const { token } = await registerOrg(t.app);
    expect((await call(token, "GET", "/api/settings/email")).json()).toEqual({
      sender_name: "",
      reply_to: null,
      signature: "",
      // No INBOUND_DOMAIN in this app: no inbound address (the email channel's tests have one).
      inbound_address: null,
      acknowledge: true,
    });
    const res = await call(token, "PUT", "/api/settings/email", {
      sender_name: "Acme Support",
      reply_to: "Help@Acme.example",
      signature: "Thanks,\nThe Acme team",
    });
    expect(res.json()).toEqual({
      sender_name: "Acme Support",
      reply_to: "help@acme.example",
      signature: "Thanks,\nThe Acme team",
      inbound_address: null,
      acknowledge: true,
    });
    const bad = await call(token, "PUT", "/api/settings/email", {
      sender_name: "A\r\nBcc: x@y.z",
      reply_to: "nope",
      signature: "",
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("Settings > Integrations: API keys", () => {
  it("creates a key shown once and stored as a sha256 hash, lists it by prefix, and revokes it", async () => {
    const { token, user } = await registerOrg(t.app);
    const res = await call(token, "POST", "/api/settings/api-keys", { name: "Zapier", scope: "read_write" });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as CreateApiKeyAnswer;
    expect(created.token).toMatch(/^ck\.[A-Za-z0-9_-]{32}$/);
    expect(created.api_key).toMatchObject({
      name: "Zapier",
      scope: "read_write",
      prefix: created.token.slice(0, 12),
      revoked_at: null,
      created_by: "Ada Lovelace",
    });

    const [row] = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select * from api_keys where id = ${created.api_key.id}`,
    );
    expect(row?.token_hash).toBe(createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = (await call(token, "GET", "/api/settings/api-keys")).json().api_keys as ApiKey[];
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const hash = createHash("sha256").update(created.token).digest("hex");
    expect(await findApiKeyByHash(t.database.db, hash)).toEqual({
      id: created.api_key.id,
      orgId: user.organizationId,
      scope: "read_write",
      plan: "growth",
    });
    expect((await call(token, "GET", "/api/settings/api-keys")).json().api_keys[0].last_used_at).not.toBeNull();
    expect(await findApiKeyByHash(t.database.db, "0".repeat(64))).toBeNull();

    const revoked = await call(token, "DELETE", `/api/settings/api-keys/${created.api_key.id}`);
    expect(revoked.json().api_key.revoked_at).not.toBeNull();
    expect(await findApiKeyByHash(t.database.db, hash)).toBeNull();
  });

  it("refuses keys on Starter (no API access) and past 20 active keys, and a key stops working on a downgrade", async () => {
    const { token, user } = await registerOrg(t.app);
    const created = (
      await call(token, "POST", "/api/settings/api-keys", { name: "One", scope: "read" })
    ).json() as CreateApiKeyAnswer;
    await t.database.db
      .update(organizations)
      .set({ plan: "starter", subscriptionStatus: "active" })
      .where(eq(organizations.id, user.organizationId));
    const refused = await call(token, "POST", "/api/settings/api-keys", { name: "Two", scope: "read" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "PLAN_FEATURE" });
    expect(refused.json().error).toMatch(/Starter plan does not include API access/);
    expect(await findApiKeyByHash(t.database.db, createHash("sha256").update(created.token).digest("hex"))).toBeNull();

    await t.database.db
      .update(organizations)
      .set({ plan: "business" })
      .where(eq(organizations.id, user.organizationId));
    for (let i = 0; i < 19; i++) await call(token, "POST", "/api/settings/api-keys", { name: `k${i}`, scope: "read" });
    const over = await call(token, "POST", "/api/settings/api-keys", { name: "too many", scope: "read" });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatch(/20 active API keys/);
    const bad = await call(token, "POST", "/api/settings/api-keys", { name: "x", scope: "admin" });
    expect(bad.statusCode).toBe(400);
  });

  it("another organization's key is not found, nor listed", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const key = (
      await call(a.token, "POST", "/api/settings/api-keys", { name: "A's", scope: "read" })
    ).json() as CreateApiKeyAnswer;
    expect((await call(b.token, "DELETE", `/api/settings/api-keys/${key.api_key.id}`)).statusCode).toBe(404);
    expect((await call(b.token, "DELETE", "/api/settings/api-keys/not-a-uuid")).statusCode).toBe(404);
    expect((await call(b.token, "GET", "/api/settings/api-keys")).json().api_keys).toEqual([]);
    expect((await call(a.token, "GET", "/api/settings/api-keys")).json().api_keys[0].revoked_at).toBeNull();
  });
});

describe("organization data export", () => {
  async function finished(token: string) {
    const until = Date.now() + 20_000;
    for (;;) {
      const current = (await call(token, "GET", "/api/organization/export")).json().export;
      if (current?.status === "done" || current?.status === "failed") return current;
      if (Date.now() > until) throw new Error(`export never finished: ${JSON.stringify(current)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("makes a ZIP of JSON files of the organization's data (and only its own) by a job with progress", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    for (const [who, subject] of [
      [a, "Alpha ticket"],
      [b, "Bravo secret ticket"],
    ] as const) {
      await call(who.token, "POST", "/api/tickets", {
        subject,
        description: "Body",
        requester_name: "Sam",
        requester_email: "sam@example.com",
      });
    }
    await call(a.token, "POST", "/api/settings/api-keys", { name: "Exported key", scope: "read" });
    const started = await call(a.token, "POST", "/api/organization/export");
    expect(started.statusCode).toBe(202);
    expect(started.json().export).toMatchObject({ status: "queued", progress: 0 });
    // A second click while it runs answers the same export.
    expect((await call(a.token, "POST", "/api/organization/export")).json().export.id).toBe(started.json().export.id);

    const done = await finished(a.token);
    expect(done).toMatchObject({ status: "done", progress: 100 });
    expect(done.size_bytes).toBeGreaterThan(100);
    const file = await call(a.token, "GET", `/api/organization/export/${done.id}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/zip");
    expect(file.headers["content-disposition"]).toMatch(/^attachment; filename="cove-export-.*\.zip"$/);
    const files = unzipSync(new Uint8Array(file.rawPayload));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(["organization.json", "tickets.json", "users.json", "api_keys.json", "README.txt"]),
    );
    expect(Object.keys(files)).not.toContain("sessions.json");
    const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    expect(text("tickets.json")).toContain("Alpha ticket");
    expect(JSON.stringify(Object.keys(files).map(text))).not.toContain("Bravo secret ticket");
    expect(text("users.json")).not.toContain("password_hash");
    expect(text("api_keys.json")).toContain("Exported key");
    expect(text("api_keys.json")).not.toContain("token_hash");
    expect(JSON.parse(text("organization.json")).id).toBe(a.user.organizationId);

    // Another organization's admin cannot download it.
    expect((await call(b.token, "POST", "/api/organization/export")).statusCode).toBe(202);
    expect((await call(b.token, "GET", `/api/organization/export/${done.id}/download`)).statusCode).toBe(404);
    expect((await call(b.token, "GET", "/api/organization/export")).json().export.id).not.toBe(done.id);
  });
});

describe("deleting the organization", () => {
  it("needs the organization's name typed exactly, then erases everything it owns", async () => {
    const { token, user } = await registerOrg(t.app, { organizationName: "Doomed Co" });
    const other = await registerOrg(t.app);
    await call(token, "POST", "/api/tickets", {
      subject: "x",
      description: "y",
      requester_name: "S",
      requester_email: "s@example.com",
    });
    const wrong = await call(token, "DELETE", "/api/organization", { confirm: "doomed co" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("Type the organization's name exactly to confirm: Doomed Co");
    const res = await call(token, "DELETE", "/api/organization", { confirm: "Doomed Co" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("Your organization and all its data were deleted.");
    const [left] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from organizations where id = ${user.organizationId})
               + (select count(*) from tickets where organization_id = ${user.organizationId})
               + (select count(*) from users where organization_id = ${user.organizationId})
               + (select count(*) from data_versions where organization_id = ${user.organizationId}) as n`,
    );
    expect(Number(left?.n)).toBe(0);
    expect((await call(token, "GET", "/api/tickets")).statusCode).toBe(401);
    expect((await call(other.token, "GET", "/api/tickets")).statusCode).toBe(200);
  });
});

describe("exports are kept 7 days", () => {
  it("the lifecycle job drops a finished export after a week", async () => {
    const { token } = await registerOrg(t.app);
    const started = (await call(token, "POST", "/api/organization/export")).json().export;
    const until = Date.now() + 20_000;
    while ((await call(token, "GET", "/api/organization/export")).json().export?.status !== "done") {
      if (Date.now() > until) throw new Error("export never finished");
      await new Promise((r) => setTimeout(r, 200));
    }
    clockAhead(8);
    await t.app.jobs.send(t.app.db, LIFECYCLE_QUEUE, {});
    const gone = Date.now() + 15_000;
    while ((await call(token, "GET", "/api/organization/export")).json().export !== null) {
      if (Date.now() > gone) throw new Error("export never dropped");
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await call(token, "GET", `/api/organization/export/${started.id}/download`)).statusCode).toBe(404);
  });
});
