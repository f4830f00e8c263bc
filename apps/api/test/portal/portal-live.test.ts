import type { ServerFrame } from "@cove/contract/realtime.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { client, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import { portalSignIn } from "../support/portal.ts";
import { connectRealtime } from "../support/realtime-client.ts";

const { t, smtp } = testAppWithMail();
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

const call = client(() => t.app);
const isEvent = (type: string, ticketId: string) => (f: ServerFrame) =>
  f.type === "event" && f.event.type === type && f.event.data.ticket_id === ticketId;

describe("the portal live", () => {
  it("a customer's reply reaches the team at once; the team's public answer reaches the customer, its notes never", async () => {
    const org = await registerOrg(t.app);
    const slug = (await call(org.token, "GET", "/api/auth/me")).json().user.organizationSlug as string;
    const email = `live-${unique()}@example.com`;
    const create = await call(org.token, "POST", "/api/tickets", {
      subject: "Live one",
      description: "d",
      requester_name: "Lee Park",
      requester_email: email,
    });
    const ticket = create.json().ticket as Ticket;
    const someoneElses = (
      await call(org.token, "POST", "/api/tickets", {
        subject: "Not theirs",
        description: "d",
        requester_name: "Other",
        requester_email: `other-${unique()}@example.com`,
      })
    ).json().ticket as Ticket;
    const { token } = await portalSignIn(t, smtp, slug, email);

    const staff = await connectRealtime(base);
    await staff.join(org.token, ["tickets", `ticket:${ticket.id}`]);
    const customer = await connectRealtime(base);
    await customer.join(token, [`ticket:${ticket.id}`, `ticket:${someoneElses.id}`, "tickets"]);
    // Only their own ticket's topic is granted.
    const refusals = customer.frames.filter((f) => f.type === "error").length;
    expect(refusals).toBe(2);

    await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, { body: "Any news?" });
    const arrived = await staff.next(isEvent("comment.added", ticket.id));
    expect(arrived).toMatchObject({ event: { actor: { kind: "contact" }, data: { is_public: true } } });

    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Internal", is_public: false });
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Shipped today", is_public: true });
    await customer.next(
      (f) => isEvent("comment.added", ticket.id)(f) && f.type === "event" && f.event.actor.kind === "staff",
    );
    const seen = customer.frames.filter(isEvent("comment.added", ticket.id));
    // Their own reply, then the public answer: the note never arrives.
    expect(seen.map((f) => (f.type === "event" ? f.event.data.is_public : null))).toEqual([true, true]);
    staff.close();
    customer.close();
  });
});
