import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "../../src/db/schema/contacts.ts";
import { tickets } from "../../src/db/schema/tickets.ts";
import { findOrCreateContact } from "../../src/modules/contacts/contacts.service.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import { bearer, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const create = (token: string, requester_email: string, requester_name = "Ana Ruiz") =>
  t.app.inject({
    method: "POST",
    url: "/api/tickets",
    headers: bearer(token),
    payload: { subject: "Hello", description: "Hi", requester_name, requester_email },
  });

describe("contacts", () => {
  it("are created from a ticket's requester, one per email and organization whatever its case", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const first = (await create(a.token, "Ana.Ruiz@Example.com")).json().ticket.id as string;
    const second = (await create(a.token, "ana.ruiz@example.com", "Ana R.")).json().ticket.id as string;
    const other = (await create(b.token, "ana.ruiz@example.com")).json().ticket.id as string;
    const linked = async (id: string) =>
      (await t.database.db.select({ c: tickets.contactId }).from(tickets).where(eq(tickets.id, id)))[0]?.c;
    const [c1, c2, c3] = [await linked(first), await linked(second), await linked(other)];
    expect(c1).toBeTruthy();
    expect(c2).toBe(c1);
    expect(c3).not.toBe(c1);
    const [row] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, c1 as string));
    expect(row).toMatchObject({ name: "Ana Ruiz", email: "ana.ruiz@example.com" });
  });

  it("stay one per email under concurrent creation", async () => {
    const org = await registerOrg(t.app);
    const orgId = org.user.organizationId;
    const ids = await Promise.all(
      Array.from({ length: 8 }, () =>
        withSystem(t.database.db, orgId, "test", (ctx) =>
          findOrCreateContact(ctx, { name: "Lee", email: "lee@example.com" }),
        ),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    const anonymous = await withSystem(t.database.db, orgId, "test", (ctx) => findOrCreateContact(ctx, { name: "" }));
    expect(anonymous).not.toBe(ids[0]);
  });
});
