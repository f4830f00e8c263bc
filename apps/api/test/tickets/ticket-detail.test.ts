import type { Attachment } from "@cove/contract/attachments.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db.ts";
import { addMember, client, registerOrg, testAppForFile, ticketFields } from "../helpers.ts";
import { PNG, uploader } from "../support/files.ts";

const t = testAppForFile();
const call = client(() => t.app);
const upload = uploader(() => t.app);

async function uploaded(token: string, url: string, filename: string, bytes: Buffer): Promise<Attachment> {
  const res = await upload(token, url, filename, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().attachment as Attachment;
}

async function posted<T>(token: string, method: "POST" | "PUT", url: string, body: object, key: string): Promise<T> {
  const res = await call(token, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json()[key] as T;
}

/**
 * The detail answers every part of a ticket as stored: its columns, assignee, tags and due time, its comments in order
 * (with their emails' latest status), its activity, its files (not a reply's pending upload) and its rating. The
 * times are set with microseconds, and the answer gives them to the millisecond, cut (not rounded), as it always has.
 */
describe("GET /api/tickets/:id, every part", () => {
  it("answers each field of the ticket, its comments, activity, files and rating", async () => {
    const org = await registerOrg(t.app);
    const orgId = org.user.organizationId;
    const member = await addMember(t.database, orgId, { firstName: "Grace", lastName: "Hopper" });
    const first = await uploaded(org.token, "/api/attachments", "photo.png", PNG);
    const created = await posted<Ticket>(
      org.token,
      "POST",
      "/api/tickets",
      ticketFields({
        subject: "Tent zipper broke",
        description: "The zipper of my tent broke\non the first night.",
        requester_name: "  Jane   Q Public ",
        requester_email: "jane@example.com",
        priority: "high",
        tags: ["vip", "billing"],
        attachment_ids: [first.id],
      }),
      "ticket",
    );
    const id = created.id;
    await posted(org.token, "PUT", `/api/tickets/${id}`, { assignee_id: member.id, status: "pending" }, "ticket");
    const reply = await posted<{ id: string }>(
      org.token,
      "POST",
      `/api/tickets/${id}/comments`,
      { body: "On it." },
      "comment",
    );
    const file = await uploaded(org.token, `/api/tickets/${id}/attachments`, "log.txt", Buffer.from("a log"));
    const note = await posted<{ id: string }>(
      org.token,
      "POST",
      `/api/tickets/${id}/comments`,
      { body: 'Internal: <b>check</b> "stock" \\ 🏕', is_public: false, attachment_ids: [file.id] },
      "comment",
    );
    // A reply's upload not yet sent is not the ticket's.
    await uploaded(org.token, `/api/tickets/${id}/attachments`, "draft.txt", Buffer.from("draft"));

    const db = t.database.db;
    // Times with microseconds; the note and the reply at the same instant (then ordered by id).
    await db.execute(sql`update tickets set created_at = '2026-11-01 10:00:00.000999+00',
        updated_at = '2026-11-02 11:30:15.5009+00', resolution_due_at = '2026-11-03 08:00:00.999999+00'
      where organization_id = ${orgId} and id = ${id}`);
    await db.execute(sql`update ticket_comments set created_at = '2026-11-01 12:00:00.123987+00'
      where organization_id = ${orgId} and ticket_id = ${id}`);
    await db.execute(sql`update ticket_events set created_at = '2026-11-01 10:00:00.000999+00'
      where organization_id = ${orgId} and ticket_id = ${id}`);
    await db.execute(sql`insert into email_messages (organization_id, direction, kind, ticket_id, comment_id, status, created_at)
      values (${orgId}, 'out', 'reply', ${id}, ${reply.id}, 'sent', now() - interval '1 hour'),
             (${orgId}, 'out', 'reply', ${id}, ${reply.id}, 'failed', now())`);
    const [contact] = await queryRows<{ contact_id: string }>(
      db,
      sql`select contact_id from tickets where organization_id = ${orgId} and id = ${id}`,
    );
    await db.execute(sql`insert into csat_surveys (organization_id, ticket_id, contact_id, solved_at, expires_at, rating, comment, answered_at)
      values (${orgId}, ${id}, ${contact?.contact_id}, now(), now() + interval '7 days', 'bad', '', '2026-11-04 09:15:00.456789+00')`);

    const res = await call(org.token, "GET", `/api/tickets/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const ticket = res.json().ticket as Ticket;
    const [lower, higher] = [reply.id, note.id].sort();
    const comment = (cid: string | undefined) =>
      cid === reply.id
        ? {
            id: reply.id,
            body: "On it.",
            is_public: true,
            author_name: "Ada Lovelace",
            author_email: org.user.email,
            created_at: "2026-11-01T12:00:00.123Z",
            email_status: "failed",
          }
        : {
            id: note.id,
            body: 'Internal: <b>check</b> "stock" \\ 🏕',
            is_public: false,
            author_name: "Ada Lovelace",
            author_email: org.user.email,
            created_at: "2026-11-01T12:00:00.123Z",
            email_status: null,
          };
    const at = "2026-11-01T10:00:00.000Z";
    expect(ticket).toEqual({
      id,
      ticket_number: 1,
      subject: "Tent zipper broke",
      description: "The zipper of my tent broke\non the first night.",
      status: "pending",
      priority: "high",
      source: "web",
      requester_name: created.requester_name,
      requester_email: "jane@example.com",
      requester_first_name: "Jane",
      requester_last_name: "Q Public",
      assignee_id: member.id,
      assignee_first_name: "Grace",
      assignee_last_name: "Hopper",
      tags: created.tags,
      created_at: at,
      updated_at: "2026-11-02T11:30:15.500Z",
      solved_at: null,
      sla_due: { kind: "resolution", due_at: "2026-11-03T08:00:00.999Z" },
      comments: [comment(lower), comment(higher)],
      activity: [
        {
          id: expect.any(String),
          type: "created",
          actor_name: "Ada Lovelace",
          from_value: null,
          to_value: "#1",
          created_at: at,
        },
        {
          id: expect.any(String),
          type: "status",
          actor_name: "Ada Lovelace",
          from_value: "open",
          to_value: "pending",
          created_at: at,
        },
        {
          id: expect.any(String),
          type: "assignee",
          actor_name: "Ada Lovelace",
          from_value: null,
          to_value: "Grace Hopper",
          created_at: at,
        },
      ],
      attachments: [
        { id: first.id, comment_id: null, filename: "photo.png", content_type: "image/png", size: PNG.length },
        { id: file.id, comment_id: note.id, filename: "log.txt", content_type: "application/octet-stream", size: 5 },
      ],
      rating: { rating: "bad", comment: null, rated_at: "2026-11-04T09:15:00.456Z" },
    });
  });
});
