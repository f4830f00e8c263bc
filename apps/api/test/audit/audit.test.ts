import type { AuditEntry, AuditListAnswer } from "@cove/contract/audit.ts";
import type { CreateApiKeyAnswer } from "@cove/contract/settings.ts";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeOldEntries } from "../../src/modules/audit/audit.service.ts";
import { LIFECYCLE_QUEUE } from "../../src/modules/billing/lifecycle.ts";
import { audit, recordAudit } from "../../src/platform/audit.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withApiKey, withSystem, withTenant } from "../../src/platform/tenancy.ts";
import {
  addMember,
  client,
  createTestApp,
  naughtySample,
  registerOrg,
  type TestApp,
  unique,
  xssPayloads,
} from "../helpers.ts";
import { linkToken, startSmtp, type TestSmtp } from "../smtp.ts";
import { clockAhead, testCard, waitForSubscription } from "../support/billing.ts";
import { startFakeImap } from "../support/fake-imap.ts";

let smtp: TestSmtp;
let imap: Awaited<ReturnType<typeof startFakeImap>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  imap = await startFakeImap();
  t = await createTestApp({ smtpUrl: smtp.url, mailboxes: { allowPrivateHosts: true } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await imap.close();
});

const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

async function entries(who: Org | { token: string }, query = ""): Promise<AuditEntry[]> {
  const res = await call(who.token, "GET", `/api/audit-log?limit=200${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AuditListAnswer).entries;
}

async function only(org: Org, action: string): Promise<AuditEntry> {
  const found = (await entries(org, `&action=${action}`)).filter((e) => e.action === action);
  expect(found, `${action} entries`).toHaveLength(1);
  return found[0] as AuditEntry;
}

const me = (org: Org) => ({ type: "member", id: org.user.id, name: `${org.user.firstName} ${org.user.lastName}` });

async function ok(res: Promise<LightMyRequestResponse>, status = 200) {
  const done = await res;
  expect(done.statusCode, done.body).toBe(status);
  return done;
}

/** The database's own message of a failed statement (Drizzle wraps it). */
async function failure(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause;
    return cause?.message ?? String(err);
  }
  throw new Error("expected the statement to fail");
}

/** Rows as the owner sees them (past row-level security). */
const ownerRows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.database.db, query);

describe("entries for every security-relevant action", () => {
  it("sign-ins: a success and a member's failure from the caller's address; an unknown email records nothing", async () => {
    const org = await registerOrg(t.app);
    const login = (password: string, email = org.user.email) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password },
        remoteAddress: "203.0.113.7",
      });
    expect((await login(org.password)).statusCode).toBe(200);
    expect((await login("wrong password!")).statusCode).toBe(401);
    // An unknown email, from an address of its own: no organization's log has an entry from it.
    const stranger = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: `nobody-${unique()}@example.com`, password: "whatever" },
      remoteAddress: stranger,
    });
    expect(unknown.statusCode).toBe(401);
    expect(await ownerRows(sql`select id from audit_log where address = ${stranger}`)).toEqual([]);

    const signIn = await only(org, "auth.sign_in");
    expect(signIn).toMatchObject({ actor: me(org), address: "203.0.113.7" });
    const failed = await only(org, "auth.sign_in_failed");
    expect(failed).toMatchObject({ actor: me(org), address: "203.0.113.7", details: { reason: "wrong_password" } });
  });

  it("invitations sent, sent again, accepted and revoked; role and status changes", async () => {
    const org = await registerOrg(t.app);
    const email = `grace-${unique()}@example.com`;
    const invited = (
      await ok(call(org, "POST", "/api/users/invite", { email, firstName: "Grace", lastName: "Hopper" }), 201)
    ).json().user;
    await ok(call(org, "POST", `/api/users/${invited.id}/resend-invite`));
    const mails = await smtp.waitFor(2, (m) => m.to.includes(email));
    const token = linkToken(mails.at(-1) ?? { to: [], raw: "", decoded: "" }, "/accept-invite");
    const accepted = await t.app.inject({
      method: "POST",
      url: "/api/auth/accept-invite",
      payload: { token, firstName: "Grace", lastName: "Hopper", password: "a long enough password" },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await ok(call(org, "PUT", `/api/users/${invited.id}`, { role: "admin" }));
    await ok(call(org, "PUT", `/api/users/${invited.id}`, { status: "inactive" }));
    const other = (
      await ok(
        call(org, "POST", "/api/users/invite", { email: `x-${unique()}@example.com`, firstName: "X", lastName: "Y" }),
        201,
      )
    ).json().user;
    await ok(call(org, "DELETE", `/api/users/${other.id}`), 200);

    const label = `Grace Hopper <${email}>`;
    const invitedEntries = (await entries(org, "&action=member.invited")).map((e) => e.object?.id);
    expect(invitedEntries).toEqual([other.id, invited.id]);
    expect((await entries(org, "&action=member.invited")).at(-1)).toMatchObject({
      actor: me(org),
      object: { type: "member", id: invited.id, label },
      details: { role: "agent" },
    });
    expect(await only(org, "member.invitation_resent")).toMatchObject({ actor: me(org), object: { id: invited.id } });
    expect(await only(org, "member.invitation_accepted")).toMatchObject({
      actor: { type: "member", id: invited.id, name: "Grace Hopper" },
      object: { type: "invitation", label: email },
    });
    expect(await only(org, "member.role_changed")).toMatchObject({
      actor: me(org),
      object: { id: invited.id },
      details: { from: "agent", to: "admin" },
    });
    expect(await only(org, "member.status_changed")).toMatchObject({ details: { from: "active", to: "inactive" } });
    expect(await only(org, "member.invitation_revoked")).toMatchObject({ actor: me(org), object: { id: other.id } });
  });

  it("API keys created and revoked (a second revoke records nothing); settings, branding and email settings", async () => {
    const org = await registerOrg(t.app);
    const key = (
      await ok(call(org, "POST", "/api/settings/api-keys", { name: "Zapier", scope: "read" }), 201)
    ).json() as CreateApiKeyAnswer;
    await ok(call(org, "DELETE", `/api/settings/api-keys/${key.api_key.id}`));
    await ok(call(org, "DELETE", `/api/settings/api-keys/${key.api_key.id}`));
    expect(await only(org, "api_key.created")).toMatchObject({
      actor: me(org),
      object: { type: "api_key", id: key.api_key.id, label: "Zapier" },
      details: { scope: "read" },
    });
    expect(await only(org, "api_key.revoked")).toMatchObject({ object: { id: key.api_key.id } });
    // The key's secret is nowhere in the log.
    expect(JSON.stringify(await entries(org))).not.toContain(key.token);

    await ok(call(org, "PUT", "/api/settings/general", { name: "Renamed Ltd", brand_color: "#FF6600" }));
    await ok(call(org, "PUT", "/api/settings/email", { sender_name: "Help", reply_to: null, signature: "" }));
    expect(await only(org, "settings.general_changed")).toMatchObject({
      actor: me(org),
      details: { name: { to: "Renamed Ltd" } },
    });
    expect(await only(org, "settings.branding_changed")).toMatchObject({ details: { brand_color: "#ff6600" } });
    expect(await only(org, "settings.email_changed")).toMatchObject({ details: { sender_name: "Help" } });
  });

  it("billing: subscribe, change of plan, cancel, resume, payment method and details", async () => {
    const org = await registerOrg(t.app);
    const pm = await testCard(t.app, org.token);
    await ok(call(org, "POST", "/api/billing/subscribe", { plan: "growth", paymentMethodId: pm }));
    await ok(call(org, "POST", "/api/billing/change-plan", { plan: "business" }));
    await ok(call(org, "POST", "/api/billing/cancel"));
    await ok(call(org, "POST", "/api/billing/resume"));
    const card = await testCard(t.app, org.token, "5555555555554444");
    await ok(call(org, "POST", "/api/billing/payment-method", { paymentMethodId: card }));
    await ok(
      call(org, "PUT", "/api/billing/details", {
        name: "Renamed Ltd",
        address_line1: "1 Main St",
        address_line2: "",
        city: "Springfield",
        region: "",
        postal_code: "12345",
        country: "US",
        tax_id: "",
      }),
    );
    expect(await only(org, "billing.subscribed")).toMatchObject({ actor: me(org), details: { plan: "growth" } });
    expect(await only(org, "billing.plan_changed")).toMatchObject({ details: { plan: "business" } });
    await only(org, "billing.canceled");
    await only(org, "billing.resumed");
    expect((await only(org, "billing.payment_method_changed")).details.card).toMatch(/4444$/);
    await only(org, "billing.details_changed");
  });

  it("a renewal the provider could not charge is the system's change (payment provider), with no address", async () => {
    const org = await registerOrg(t.app);
    await ok(
      call(org, "POST", "/api/billing/subscribe", {
        plan: "starter",
        paymentMethodId: await testCard(t.app, org.token),
      }),
    );
    const declining = await testCard(t.app, org.token, "4000000000000341");
    await ok(call(org, "POST", "/api/billing/payment-method", { paymentMethodId: declining }));
    clockAhead(31);
    try {
      await t.app.jobs.send(t.app.db, LIFECYCLE_QUEUE, {});
      await waitForSubscription(t.app, org.token, (x) => x.status === "past_due");
      // The status and its entry commit together: once the one shows, so does the other.
      // On PostgreSQL the test files share one database, and another file's app renews every due subscription at its
      // own moved clock: a later change (past_due onwards) may follow. The failed renewal itself is recorded once.
      const changed = (await entries(org, "&action=billing.status_changed")).filter((e) => e.details.from === "active");
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({
        actor: { type: "system", id: "payment-provider", name: "Payment provider" },
        address: null,
        details: { from: "active", to: "past_due" },
      });
    } finally {
      clockAhead(0);
    }
  });

  it("exports started (member), finished (system) and downloaded (member)", async () => {
    const org = await registerOrg(t.app);
    const started = (await ok(call(org, "POST", "/api/organization/export"), 202)).json().export;
    const until = Date.now() + 20_000;
    for (;;) {
      const current = (await call(org, "GET", "/api/organization/export")).json().export;
      if (current?.status === "done") break;
      if (Date.now() > until || current?.status === "failed") throw new Error(`export: ${JSON.stringify(current)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await ok(call(org, "GET", `/api/organization/export/${started.id}/download`));
    expect(await only(org, "export.started")).toMatchObject({
      actor: me(org),
      object: { type: "export", id: started.id },
    });
    expect(await only(org, "export.completed")).toMatchObject({
      actor: { type: "system", id: "data-export" },
      address: null,
      object: { id: started.id },
    });
    expect(await only(org, "export.downloaded")).toMatchObject({ actor: me(org), object: { id: started.id } });
  });

  it("automation rules created, changed and deleted; mailboxes connected, changed and removed", async () => {
    const org = await registerOrg(t.app);
    const rule = (
      await ok(
        call(org, "POST", "/api/automation/rules", {
          name: "Refunds",
          triggerConditions: { event: "ticket_created", conditions: [] },
          actions: [{ type: "add_tags", tags: ["billing"] }],
        }),
        201,
      )
    ).json().rule;
    await ok(call(org, "PUT", `/api/automation/rules/${rule.id}`, { isActive: false }));
    await ok(call(org, "DELETE", `/api/automation/rules/${rule.id}`));
    expect(await only(org, "automation_rule.created")).toMatchObject({
      actor: me(org),
      object: { type: "automation_rule", id: rule.id, label: "Refunds" },
    });
    expect(await only(org, "automation_rule.changed")).toMatchObject({
      details: { fields: ["isActive"], active: false },
    });
    await only(org, "automation_rule.deleted");

    const access = { host: "127.0.0.1", port: imap.port, tls: false, user: "help@example.com", folder: "INBOX" };
    const connected = await ok(call(org, "POST", "/api/email/mailboxes", { ...access, password: "secret" }), 201);
    const mailbox = connected.json().mailbox;
    const label = `help@example.com @ 127.0.0.1`;
    expect(await only(org, "mailbox.connected")).toMatchObject({
      actor: me(org),
      object: { type: "mailbox", id: mailbox.id, label },
      details: { folder: "INBOX" },
    });
    await ok(call(org, "PUT", `/api/email/mailboxes/${mailbox.id}`, { ...access, password: "" }));
    expect(await only(org, "mailbox.changed")).toMatchObject({
      object: { id: mailbox.id },
      details: { another: false },
    });
    await ok(call(org, "DELETE", `/api/email/mailboxes/${mailbox.id}`));
    expect(await only(org, "mailbox.removed")).toMatchObject({ actor: me(org), object: { id: mailbox.id, label } });
    // The mailbox's password is nowhere in the log.
    expect(JSON.stringify(await entries(org))).not.toContain("secret");

    const [box] = await ownerRows<{ id: string }>(
      sql`insert into email_mailboxes (organization_id, host, port, tls, username, status)
          values (${org.user.organizationId}, 'imap.example.com', 993, true, 'sales@example.com', 'watching') returning id`,
    );
    await ok(call(org, "POST", `/api/email/mailboxes/${box?.id}/cancel`));
    const cancelled = (await entries(org, "&action=mailbox.changed")).find((e) => e.object?.id === box?.id);
    expect(cancelled).toMatchObject({
      actor: me(org),
      object: { label: "sales@example.com @ imap.example.com" },
      details: { status: "cancelled" },
    });
  });

  it("the organization's deletion request is written in the request's transaction (then erased with the organization)", async () => {
    const org = await registerOrg(t.app);
    // A copy the test keeps of every entry written, since the organization's entries go with it.
    await t.database.executeSql(`
      create table if not exists audit_copy (organization_id uuid, action text, actor_id text);
      create or replace function audit_copy_row() returns trigger language plpgsql as $$
        begin insert into audit_copy values (new.organization_id, new.action, new.actor_id); return new; end $$;
      drop trigger if exists audit_copy on audit_log;
      create trigger audit_copy after insert on audit_log for each row execute function audit_copy_row();
      grant insert on audit_copy to cove_app;`);
    try {
      const wrong = await call(org, "DELETE", "/api/organization", { confirm: "not the name" });
      expect(wrong.statusCode).toBe(400);
      const me = await call(org, "GET", "/api/settings/general");
      await ok(call(org, "DELETE", "/api/organization", { confirm: me.json().name }));
      const copied = await ownerRows<{ action: string; actor_id: string }>(
        sql`select action, actor_id from audit_copy where organization_id = ${org.user.organizationId}`,
      );
      expect(copied.filter((r) => r.action === "organization.deletion_requested")).toEqual([
        { action: "organization.deletion_requested", actor_id: org.user.id },
      ]);
      const left = await ownerRows(sql`select id from audit_log where organization_id = ${org.user.organizationId}`);
      expect(left).toEqual([]);
    } finally {
      await t.database.executeSql("drop trigger if exists audit_copy on audit_log; drop table if exists audit_copy;");
    }
  });

  it("an API key, the system and a customer are named as they were when they acted", async () => {
    const org = await registerOrg(t.app);
    const key = (
      await ok(call(org, "POST", "/api/settings/api-keys", { name: "Reporting", scope: "read_write" }), 201)
    ).json() as CreateApiKeyAnswer;
    const orgId = org.user.organizationId;
    await withApiKey(
      t.app.db,
      { kind: "api_key", orgId, keyId: key.api_key.id, scope: "read_write", plan: "growth" },
      (ctx) => audit(ctx, "export.started", { type: "export", id: null, label: "by key" }),
    );
    await withSystem(t.app.db, orgId, "billing-lifecycle", (ctx) => audit(ctx, "billing.canceled"));
    const [byKey] = await entries(org, "&actor_type=api_key");
    expect(byKey).toMatchObject({ actor: { type: "api_key", id: key.api_key.id, name: "Reporting" }, address: null });
    const [bySystem] = await entries(org, "&actor_type=system");
    expect(bySystem?.actor).toEqual({ type: "system", id: "billing-lifecycle", name: "billing-lifecycle" });
    const [contact] = await ownerRows<{ id: string }>(
      sql`insert into contacts (organization_id, name, email) values (${orgId}, 'Ana Ruiz', 'ana@example.com') returning id`,
    );
    const contactId = contact?.id ?? "";
    await withSystem(t.app.db, orgId, "portal", (ctx) =>
      recordAudit(ctx.db, { orgId, actor: { kind: "contact", id: contactId }, action: "contact.export_downloaded" }),
    );
    await ownerRows(sql`update contacts set name = 'Renamed' where id = ${contactId}`);
    const [byCustomer] = await entries(org, "&actor_type=customer");
    expect(byCustomer?.actor).toEqual({ type: "customer", id: contactId, name: "Ana Ruiz" });
  });
});

describe("naughty names", () => {
  it("keeps naughty strings and XSS payloads as text in labels and names, and the chain still verifies", async () => {
    const org = await registerOrg(t.app);
    const names = [...naughtySample(), ...xssPayloads().slice(0, 20)]
      .map((s) => s.trim())
      .filter((s) => s.length > 0 && s.length <= 100);
    const kept: string[] = [];
    for (const name of names) {
      const res = await call(org, "POST", "/api/automation/rules", {
        name,
        triggerConditions: { event: "ticket_created", conditions: [] },
        actions: [{ type: "add_tags", tags: ["x"] }],
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 201) kept.push(res.json().rule.name);
    }
    expect(kept.length).toBeGreaterThan(20);
    const labels = (await entries(org, "&action=automation_rule.created")).map((e) => e.object?.label).reverse();
    expect(labels).toEqual(kept);
    expect((await ok(call(org, "GET", "/api/audit-log/verify"))).json()).toEqual({
      intact: true,
      checked: kept.length,
    });
    const csv = await ok(call(org, "GET", "/api/audit-log.csv"));
    expect(csv.body.split("\r\n").length).toBeGreaterThan(kept.length);
  });
});

describe("written with the action or not at all", () => {
  it("an action that fails after its entry was written leaves neither the change nor the entry", async () => {
    const org = await registerOrg(t.app);
    const orgId = org.user.organizationId;
    await expect(
      withTenant(t.app.db, { orgId, userId: org.user.id, role: "admin" }, async (ctx) => {
        await audit(ctx, "settings.general_changed", { type: "organization", id: orgId, label: "never" });
        throw new Error("the action failed after its audit entry");
      }),
    ).rejects.toThrow("after its audit entry");
    expect(await entries(org)).toEqual([]);

    // A real action whose transaction fails at commit, after the entry: the rule is not created either.
    await t.database.executeSql(`
      create or replace function audit_refuse() returns trigger language plpgsql as $$
        begin raise exception 'refused at commit'; end $$;
      create constraint trigger audit_refuse after insert on audit_log deferrable initially deferred
        for each row when (new.object_label = 'Doomed rule') execute function audit_refuse();`);
    try {
      const res = await call(org, "POST", "/api/automation/rules", {
        name: "Doomed rule",
        triggerConditions: { event: "ticket_created", conditions: [] },
        actions: [{ type: "add_tags", tags: ["x"] }],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.database.executeSql("drop trigger if exists audit_refuse on audit_log;");
    }
    expect((await call(org, "GET", "/api/automation/rules")).json().rules).toEqual([]);
    expect(await entries(org)).toEqual([]);
  });

  it("the app's role can neither change nor delete an entry", async () => {
    const org = await registerOrg(t.app);
    await ok(call(org, "PUT", "/api/settings/email", { sender_name: "Help", reply_to: null, signature: "" }));
    const who = { orgId: org.user.organizationId, userId: org.user.id, role: "admin" as const };
    const update = withTenant(t.app.db, who, (ctx) => ctx.db.execute(sql`update audit_log set actor_name = 'Mallory'`));
    expect(await failure(update)).toMatch(/permission denied/);
    const remove = withTenant(t.app.db, who, (ctx) => ctx.db.execute(sql`delete from audit_log`));
    expect(await failure(remove)).toMatch(/permission denied/);
    const truncate = withTenant(t.app.db, who, (ctx) => ctx.db.execute(sql`truncate audit_log`));
    expect(await failure(truncate)).toMatch(/permission denied/);
    expect(await entries(org)).toHaveLength(1);
  });
});

describe("the hash chain", () => {
  async function verify(org: Org) {
    const res = await call(org, "GET", "/api/audit-log/verify");
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const changeEmail = (org: Org, name: string) =>
    ok(call(org, "PUT", "/api/settings/email", { sender_name: name, reply_to: null, signature: "" }));

  it("is intact, and says where it breaks after a row is altered or removed directly in the database", async () => {
    const org = await registerOrg(t.app);
    for (const name of ["One", "Two", "Three", "Four"]) await changeEmail(org, name);
    expect(await verify(org)).toEqual({ intact: true, checked: 4 });
    const ids = (await entries(org)).map((e) => e.id).reverse();

    await t.database.db.execute(sql`update audit_log set actor_name = 'Mallory' where id = ${Number(ids[1])}`);
    expect(await verify(org)).toMatchObject({ intact: false, brokenAt: ids[1], checked: 1 });
    await t.database.db.execute(
      sql`update audit_log set details = '{"sender_name":"Evil"}' where id = ${Number(ids[1])}`,
    );
    expect(await verify(org)).toMatchObject({ intact: false, brokenAt: ids[1] });

    const other = await registerOrg(t.app);
    for (const name of ["One", "Two", "Three"]) await changeEmail(other, name);
    const otherIds = (await entries(other)).map((e) => e.id).reverse();
    await t.database.db.execute(sql`delete from audit_log where id = ${Number(otherIds[1])}`);
    expect(await verify(other)).toMatchObject({ intact: false, brokenAt: otherIds[2], checked: 1 });
  });

  it("concurrent actions keep one unbroken chain", async () => {
    const org = await registerOrg(t.app);
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => changeEmail(org, `Name ${i}`)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await verify(org)).toEqual({ intact: true, checked: 24 });
    const links = await ownerRows<{ prev_hash: string | null }>(
      sql`select prev_hash from audit_log where organization_id = ${org.user.organizationId}`,
    );
    expect(new Set(links.map((l) => l.prev_hash)).size).toBe(24);
  });

  it("entries past 365 days are purged daily, and the chain verifies from the oldest kept entry", async () => {
    const org = await registerOrg(t.app);
    for (const name of ["Old", "Older", "Kept", "Newest"]) await changeEmail(org, name);
    const ids = (await entries(org)).map((e) => Number(e.id)).reverse();
    // Two entries written 400 days ago (as the owner: the retention job's view).
    await t.database.db.execute(
      sql`update audit_log set created_at = now() - interval '400 days' where id in (${ids[0]}, ${ids[1]})`,
    );
    expect(await purgeOldEntries(t.database.executeSql)).toBeGreaterThanOrEqual(2);
    expect((await entries(org)).map((e) => Number(e.id))).toEqual([ids[3], ids[2]]);
    expect(await verify(org)).toEqual({ intact: true, checked: 2 });
  });
});

describe("reading the log", () => {
  it("filters by actor, action and dates, pages newest first, and downloads the same as CSV", async () => {
    const org = await registerOrg(t.app);
    const admin2 = await addMember(t.database, org.user.organizationId, {
      role: "admin",
      firstName: "Bo",
      lastName: "Li",
    });
    for (let i = 0; i < 5; i++) {
      await ok(
        call(org, "PUT", "/api/settings/email", {
          sender_name: `=cmd|' /C calc'!A${i}`,
          reply_to: null,
          signature: "",
        }),
      );
    }
    await ok(call(admin2.token, "POST", "/api/settings/api-keys", { name: 'Key "quoted", comma', scope: "read" }), 201);

    const all = await entries(org);
    expect(all.map((e) => e.action)).toEqual(["api_key.created", ...Array(5).fill("settings.email_changed")]);
    expect((await entries(org, `&actor_id=${admin2.id}`)).map((e) => e.actor.name)).toEqual(["Bo Li"]);
    expect(await entries(org, "&actor_type=member&action=api_key.created")).toHaveLength(1);
    expect(await entries(org, "&actor_type=system")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await entries(org, `&from=${today}&to=${today}`)).toHaveLength(6);
    expect(await entries(org, "&to=2020-01-01")).toEqual([]);
    expect(await entries(org, `&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);

    const first = (await ok(call(org, "GET", "/api/audit-log?limit=4"))).json() as AuditListAnswer;
    expect(first.entries.map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    const second = (await ok(call(org, "GET", `/api/audit-log?limit=4&cursor=${first.next_cursor}`))).json();
    expect(second.entries.map((e: AuditEntry) => e.id)).toEqual(all.slice(4).map((e) => e.id));
    expect(second.next_cursor).toBeNull();

    const actors = (await ok(call(org, "GET", "/api/audit-log/actors"))).json().actors;
    expect(actors.map((a: { name: string }) => a.name)).toEqual(["Ada Lovelace", "Bo Li"]);

    const csv = await ok(call(org, "GET", "/api/audit-log.csv?action=settings.email_changed"));
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.trim().split("\r\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      '"Time (UTC)","Actor type","Actor ID","Actor","Action","Action name","Object type","Object ID","Object","Address","Details"',
    );
    expect(lines[1]).toContain('"Ada Lovelace","Changed the email settings","settings.email_changed"');
    // A value a spreadsheet would run as a formula stays text.
    expect(lines[1]).not.toMatch(/,"=/);
    const keyCsv = await ok(call(org, "GET", `/api/audit-log.csv?actor_id=${admin2.id}`));
    expect(keyCsv.body).toContain('"Key ""quoted"", comma"');
  });

  it("refuses bad filters with a clear 400", async () => {
    const org = await registerOrg(t.app);
    for (const [query, message] of [
      ["action=member.exploded", "action is not one of the audit log's actions"],
      ["actor_type=robot", "actor_type must be one of"],
      ["from=yesterday", "from must be a date"],
      ["to=2026-13-45", "to must be a date"],
      ["cursor=abc", "cursor is not valid"],
      ["limit=0", "limit must be at least 1"],
      ["limit=1000", "limit must be at most 200"],
    ] as const) {
      const res = await call(org, "GET", `/api/audit-log?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await call(org, "GET", "/api/audit-log.csv?from=<script>")).statusCode).toBe(400);
  });

  it("is for admins only: agents get 403, signed-out callers 401", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    for (const url of ["/api/audit-log", "/api/audit-log.csv", "/api/audit-log/actors", "/api/audit-log/verify"]) {
      expect((await call(agent.token, "GET", url)).statusCode, url).toBe(403);
      expect((await call(null, "GET", url)).statusCode, url).toBe(401);
    }
  });

  it("another organization sees none of the entries", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    await ok(call(a, "PUT", "/api/settings/email", { sender_name: "Secret A", reply_to: null, signature: "" }));
    const aEntry = (await entries(a))[0];
    expect(await entries(b)).toEqual([]);
    expect(await entries(b, `&actor_id=${a.user.id}`)).toEqual([]);
    expect((await ok(call(b, "GET", `/api/audit-log?cursor=${Number(aEntry?.id) + 1}`))).json().entries).toEqual([]);
    expect((await ok(call(b, "GET", "/api/audit-log/actors"))).json().actors).toEqual([]);
    expect((await ok(call(b, "GET", "/api/audit-log/verify"))).json()).toEqual({ intact: true, checked: 0 });
    const csv = await ok(call(b, "GET", "/api/audit-log.csv"));
    expect(csv.body).not.toContain("Secret A");
    expect(csv.body.trim().split("\r\n")).toHaveLength(1);
    // Even a write aimed at another organization is refused by row-level security.
    const forged = withTenant(t.app.db, { orgId: b.user.organizationId, userId: b.user.id, role: "admin" }, (ctx) =>
      recordAudit(ctx.db, { orgId: a.user.organizationId, actor: ctx.actor, action: "billing.canceled" }),
    );
    expect(await failure(forged)).toMatch(/row-level security/);
  });
});
