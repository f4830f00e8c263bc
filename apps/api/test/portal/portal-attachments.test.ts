import type { Attachment } from "@cove/contract/attachments.ts";
import type { CustomerTicketDetail } from "@cove/contract/portal.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import contentDisposition from "content-disposition";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findOrCreateContact, startContactSession } from "../../src/modules/contacts/contacts.service.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withoutTheRule } from "../../src/platform/sql-log.ts";
import { withContact, withSystem } from "../../src/platform/tenancy.ts";
import { client, errorAnswer, naughtySample, registerOrg, testAppForFile, unique } from "../helpers.ts";
import { EXE, PNG, SMALL_LIMITS, uploader } from "../support/files.ts";

const t = testAppForFile({ attachmentLimits: SMALL_LIMITS });

const call = client(() => t.app);

async function newOrg() {
  const org = await registerOrg(t.app);
  return { token: org.token, id: org.user.organizationId };
}

/** A customer of org signed in to the portal (a contact session, as a redeemed sign-in link starts). */
async function customerOf(orgId: string, name = "Ana Ruiz") {
  return withSystem(t.database.db, orgId, "test", async (ctx) => {
    const contactId = await findOrCreateContact(ctx, { name, email: `c-${unique()}@example.com` });
    const session = await startContactSession(ctx, contactId, "portal", 3_600_000);
    return { token: session.token, sessionId: session.sessionId, contactId, orgId };
  });
}
type Customer = Awaited<ReturnType<typeof customerOf>>;

const uploadTo = uploader(() => t.app);
const upload = (token: string, filename: string, bytes: Buffer, url = "/api/portal/attachments") =>
  uploadTo(token, url, filename, bytes);

async function uploaded(token: string, filename: string, bytes: Buffer): Promise<Attachment> {
  const res = await upload(token, filename, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().attachment as Attachment;
}

async function submit(customer: Customer, attachment_ids: string[] = []) {
  const res = await call(customer.token, "POST", "/api/portal/tickets", {
    subject: "The lamp",
    description: "See the photo",
    attachment_ids,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket as CustomerTicketDetail;
}

const myTicket = async (customer: Customer, id: string) => {
  const res = await call(customer.token, "GET", `/api/portal/tickets/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().ticket as CustomerTicketDetail;
};
const staffTicket = async (token: string, id: string) =>
  (await call(token, "GET", `/api/tickets/${id}`)).json().ticket as Ticket;
const portalFile = (token: string, ticketId: string, id: string) =>
  call(token, "GET", `/api/portal/tickets/${ticketId}/attachments/${id}`);

describe("files in the customer portal", () => {
  it("a customer attaches files to a new ticket and a reply; staff see them like any other", async () => {
    const org = await newOrg();
    const ana = await customerOf(org.id);
    const photo = await uploaded(ana.token, "lamp.png", PNG);
    expect(photo).toMatchObject({ filename: "lamp.png", content_type: "image/png", comment_id: null });

    const ticket = await submit(ana, [photo.id]);
    expect(ticket.attachments.map((a) => [a.id, a.comment_id])).toEqual([[photo.id, null]]);
    const image = await portalFile(ana.token, ticket.id, photo.id);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["content-disposition"]).toMatch(/^inline;/);
    expect(image.headers["x-content-type-options"]).toBe("nosniff");
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const program = await uploaded(ana.token, "photo.png", EXE);
    expect(program.content_type).toBe("application/octet-stream");
    const reply = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "And this",
      attachment_ids: [program.id],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const commentId = reply.json().comment.id as string;
    const download = await portalFile(ana.token, ticket.id, program.id);
    expect(download.headers["content-disposition"]).toBe('attachment; filename="photo.png"');
    expect(download.headers["content-type"]).toBe("application/octet-stream");

    const staff = await staffTicket(org.token, ticket.id);
    expect(staff.attachments?.map((a) => [a.id, a.comment_id])).toEqual([
      [photo.id, null],
      [program.id, commentId],
    ]);
    const staffImage = await call(org.token, "GET", `/api/tickets/${ticket.id}/attachments/${photo.id}`);
    expect(staffImage.statusCode).toBe(200);
    expect(staffImage.rawPayload.equals(PNG)).toBe(true);
  });

  it("shows the customer the files of staff's public replies, never an internal note's (404, not listed, not counted)", async () => {
    const org = await newOrg();
    const ana = await customerOf(org.id);
    const ticket = await submit(ana);
    const staffUpload = async (name: string) => {
      const res = await upload(org.token, name, PNG, `/api/tickets/${ticket.id}/attachments`);
      expect(res.statusCode).toBe(201);
      return res.json().attachment as Attachment;
    };
    const shared = await staffUpload("answer.png");
    const secret = await staffUpload("internal.png");
    // An upload not yet sent is nobody's to see but its writer's.
    expect((await portalFile(ana.token, ticket.id, shared.id)).statusCode).toBe(404);
    for (const [file, is_public] of [
      [shared, true],
      [secret, false],
    ] as const) {
      const res = await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, {
        body: is_public ? "Here" : "Between us",
        is_public,
        attachment_ids: [file.id],
      });
      expect(res.statusCode).toBe(201);
    }
    const seen = await myTicket(ana, ticket.id);
    expect(seen.attachments.map((a) => a.id)).toEqual([shared.id]);
    expect(seen.comment_count).toBe(1);
    expect(JSON.stringify(seen)).not.toContain("internal.png");
    expect((await portalFile(ana.token, ticket.id, shared.id)).statusCode).toBe(200);
    const hidden = await portalFile(ana.token, ticket.id, secret.id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe("NOT_FOUND");

    // Row-level security holds without the service's filter: the contact role sees no row of the note's file.
    const rows = await withContact(
      t.database.db,
      { kind: "contact", orgId: org.id, contactId: ana.contactId, sessionId: ana.sessionId },
      (ctx) => withoutTheRule(() => queryRows<{ id: string }>(ctx.db, sql`select id from attachments order by seq`)),
    );
    expect(rows.map((r) => r.id)).toEqual([shared.id]);
  });

  it("never serves a file to another customer, another organization, or the wrong kind of token", async () => {
    const org = await newOrg();
    const ana = await customerOf(org.id);
    const ben = await customerOf(org.id, "Ben Okafor");
    const photo = await uploaded(ana.token, "lamp.png", PNG);
    const ticket = await submit(ana, [photo.id]);

    const other = await newOrg();
    const stranger = await customerOf(other.id);
    for (const token of [ben.token, stranger.token]) {
      const res = await portalFile(token, ticket.id, photo.id);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe("NOT_FOUND");
      // Nor by naming the file under one of their own tickets.
      const own = await submit(token === ben.token ? ben : stranger);
      expect((await portalFile(token, own.id, photo.id)).statusCode).toBe(404);
    }
    expect((await call(other.token, "GET", `/api/tickets/${ticket.id}/attachments/${photo.id}`)).statusCode).toBe(404);
    // Staff read files through the staff route; a customer token is not staff's.
    expect((await portalFile(org.token, ticket.id, photo.id)).statusCode).toBe(403);
    expect([403, 404]).toContain(
      (await call(ana.token, "GET", `/api/tickets/${ticket.id}/attachments/${photo.id}`)).statusCode,
    );
    expect(
      (await t.app.inject({ method: "GET", url: `/api/portal/tickets/${ticket.id}/attachments/${photo.id}` }))
        .statusCode,
    ).toBe(401);
    expect((await portalFile(ana.token, ticket.id, "nope")).statusCode).toBe(404);
  });

  it("attaches only the customer's own uploads, once", async () => {
    const org = await newOrg();
    const ana = await customerOf(org.id);
    const ben = await customerOf(org.id, "Ben Okafor");
    const bens = await uploaded(ben.token, "ben.png", PNG);
    const refused = await call(ana.token, "POST", "/api/portal/tickets", {
      subject: "Mine",
      description: "Taking Ben's file",
      attachment_ids: [bens.id],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("A file of this message was not found: upload it again.");
    // Refused as a whole: no ticket was made.
    expect((await call(ana.token, "GET", "/api/portal/tickets")).json().pagination.total).toBe(0);

    const ticket = await submit(ana);
    const staffFile = await upload(org.token, "staff.png", PNG, `/api/tickets/${ticket.id}/attachments`);
    const again = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "With the team's file",
      attachment_ids: [staffFile.json().attachment.id],
    });
    expect(again.statusCode).toBe(400);

    const mine = await uploaded(ana.token, "a.png", PNG);
    const first = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "One",
      attachment_ids: [mine.id],
    });
    expect(first.statusCode).toBe(201);
    const twice = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "Two",
      attachment_ids: [mine.id],
    });
    expect(twice.statusCode).toBe(400);
  });

  it("keeps naughty file names as safe text, in the answer and in the header", async () => {
    const org = await newOrg();
    const ana = await customerOf(org.id);
    const names = [...naughtySample(), "../../etc/passwd", "\u202Egnp.exe", 'a"b\r\nSet-Cookie: x=1', "x".repeat(900)];
    const files: Attachment[] = [];
    const ticket = await submit(ana);
    // Sent in messages of three (the limit; files waiting to be sent are capped).
    const send = async (batch: Attachment[]) => {
      const res = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
        body: "Files",
        attachment_ids: batch.map((f) => f.id),
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    for (const name of names) {
      const res = await upload(ana.token, name, PNG);
      expect([201, 400], `${JSON.stringify(name)}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 400) {
        expect(res.json().error).toMatch(/file name|invalid/i);
        continue;
      }
      const file = res.json().attachment as Attachment;
      expect(file.filename).not.toMatch(/[\\/"\u202e]|\p{Cc}/u);
      expect(file.filename.length).toBeGreaterThan(0);
      expect(file.filename.length).toBeLessThanOrEqual(200);
      files.push(file);
      if (files.length % 3 === 0) await send(files.slice(-3));
    }
    if (files.length % 3 !== 0) await send(files.slice(files.length - (files.length % 3)));
    // Each served with a header that parses back to its name.
    for (const file of files) {
      const res = await portalFile(ana.token, ticket.id, file.id);
      expect(res.statusCode).toBe(200);
      const header = String(res.headers["content-disposition"]);
      // RFC 6266 / 5987: a Latin-1 name as it is, any other beside a plain fallback in attr-chars and %-escapes.
      expect(header).toMatch(/^inline; filename="[\x20-\xff]*"(; filename\*=UTF-8''[A-Za-z0-9%!#$&+\-.^_`|~]+)?$/);
      expect(contentDisposition.parse(header).parameters.filename).toBe(file.filename);
    }
  });

  it("holds the configured limits with clear messages, and announces them", async () => {
    const limits = await t.app.inject({ method: "GET", url: "/api/public/attachment-limits" });
    expect(limits.statusCode).toBe(200);
    expect(limits.json()).toEqual({ limits: SMALL_LIMITS });

    const org = await newOrg();
    const ana = await customerOf(org.id);
    const big = await upload(ana.token, "big.bin", Buffer.alloc(SMALL_LIMITS.max_file_bytes + 1, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual(errorAnswer("The file is too large: a file can be at most 4 KB.", "PAYLOAD_TOO_LARGE"));
    const staffBig = await upload(
      org.token,
      "big.bin",
      Buffer.alloc(SMALL_LIMITS.max_file_bytes + 1, 1),
      "/api/tickets/x/attachments",
    );
    expect(staffBig.statusCode).toBe(413);
    expect((await upload(ana.token, "empty.txt", Buffer.alloc(0))).statusCode).toBe(400);

    const ticket = await submit(ana);
    const files = [];
    for (let i = 0; i < 4; i++) files.push(await uploaded(ana.token, `f${i}.bin`, Buffer.alloc(2048, i + 1)));
    const four = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "Four files",
      attachment_ids: files.map((f) => f.id),
    });
    expect(four.statusCode).toBe(400);
    expect(four.json().error).toBe("A message can have at most 3 files.");

    const large = [];
    for (let i = 0; i < 2; i++) large.push(await uploaded(ana.token, `l${i}.bin`, Buffer.alloc(4000, 7)));
    const together = await call(ana.token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "Too much together",
      attachment_ids: large.map((f) => f.id),
    });
    expect(together.statusCode).toBe(400);
    expect(together.json().error).toBe("The files of one message can be at most 6 KB together.");
    expect((await myTicket(ana, ticket.id)).comments).toHaveLength(0);

    // Files waiting to be sent are capped at two messages' worth.
    let refused = null;
    for (let i = 0; i < SMALL_LIMITS.max_files * 2 + 1 && !refused; i++) {
      const res = await upload(ana.token, `w${i}.txt`, Buffer.from("w"));
      if (res.statusCode !== 201) refused = res;
    }
    expect(refused?.statusCode).toBe(409);
    expect(refused?.json().error).toMatch(/Too many files are waiting/);
  });
});
