import type { Attachment } from "@cove/contract/attachments.ts";
import { describe, expect, it } from "vitest";
import { addMember, client, naughtySample, registerOrg, testAppForFile, ticketFields } from "../helpers.ts";
import { PNG, SMALL_LIMITS, uploader } from "../support/files.ts";

const t = testAppForFile({ attachmentLimits: SMALL_LIMITS });

const call = client(() => t.app);

const uploadTo = uploader(() => t.app);
const upload = (token: string, filename: string, bytes: Buffer) => uploadTo(token, "/api/attachments", filename, bytes);

async function uploaded(token: string, filename: string, bytes: Buffer): Promise<Attachment> {
  const res = await upload(token, filename, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().attachment as Attachment;
}

const ticketCount = async (token: string) =>
  (await call(token, "GET", "/api/tickets?per_page=1")).json().pagination.total as number;

describe("files on a ticket staff create", () => {
  it("a member uploads files before the ticket exists and they become its first message's", async () => {
    const org = await registerOrg(t.app);
    const png = await uploaded(org.token, "photo.png", PNG);
    const pdf = await uploaded(org.token, "invoice.pdf", Buffer.from("%PDF-1.4 invoice"));
    expect(png).toMatchObject({ filename: "photo.png", content_type: "image/png", comment_id: null });

    const res = await call(org, "POST", "/api/tickets", ticketFields({ attachment_ids: [png.id, pdf.id] }));
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json().ticket;
    expect(ticket.attachments.map((a: Attachment) => [a.filename, a.comment_id])).toEqual([
      ["photo.png", null],
      ["invoice.pdf", null],
    ]);
    const file = await call(org, "GET", `/api/tickets/${ticket.id}/attachments/${png.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(PNG)).toBe(true);

    // Attached once: another ticket naming the same file is refused, and nothing of it is kept.
    const before = await ticketCount(org.token);
    const again = await call(org, "POST", "/api/tickets", ticketFields({ attachment_ids: [png.id] }));
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("A file of this message was not found: upload it again.");
    expect(await ticketCount(org.token)).toBe(before);
  });

  it("a pending upload is its uploader's alone: not a teammate's, an API key's or another organization's", async () => {
    const org = await registerOrg(t.app);
    const mine = await uploaded(org.token, "mine.txt", Buffer.from("mine"));
    const teammate = await addMember(t.database, org.user.organizationId);
    const theirs = await call(teammate, "POST", "/api/tickets", ticketFields({ attachment_ids: [mine.id] }));
    expect(theirs.statusCode).toBe(400);

    const key = await call(org, "POST", "/api/settings/api-keys", { name: "Zapier", scope: "read_write" });
    const byKey = await call(key.json().token, "POST", "/api/tickets", ticketFields({ attachment_ids: [mine.id] }));
    expect(byKey.statusCode).toBe(400);

    const other = await registerOrg(t.app);
    const across = await call(other, "POST", "/api/tickets", ticketFields({ attachment_ids: [mine.id] }));
    expect(across.statusCode).toBe(400);
    const otherTicket = (await call(other, "POST", "/api/tickets", ticketFields())).json().ticket;
    const peek = await call(other, "GET", `/api/tickets/${otherTicket.id}/attachments/${mine.id}`);
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain("mine");

    // Still pending and still the uploader's: it attaches to their own ticket.
    const res = await call(org, "POST", "/api/tickets", ticketFields({ attachment_ids: [mine.id] }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ticket.attachments).toHaveLength(1);
  });

  it("keeps a message within its limits, and a member's waiting files to two messages' worth", async () => {
    const org = await registerOrg(t.app);
    expect((await upload(org.token, "empty.txt", Buffer.alloc(0))).statusCode).toBe(400);
    const big = await upload(org.token, "big.bin", Buffer.alloc(SMALL_LIMITS.max_file_bytes + 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatch(/at most 4 KB/);

    const files = [];
    for (let i = 0; i < 4; i++) files.push(await uploaded(org.token, `f${i}.txt`, Buffer.alloc(100, 65 + i)));
    const tooMany = await call(org, "POST", "/api/tickets", ticketFields({ attachment_ids: files.map((f) => f.id) }));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe("A message can have at most 3 files.");
    for (let i = 4; i < 6; i++) await uploaded(org.token, `f${i}.txt`, Buffer.from("x"));
    const seventh = await upload(org.token, "f6.txt", Buffer.from("x"));
    expect(seventh.statusCode).toBe(409);
    expect(seventh.json().error).toMatch(/Too many files are waiting to be sent/);
  });

  it("keeps a naughty file name safe to store and to serve", async () => {
    const org = await registerOrg(t.app);
    for (const name of naughtySample()) {
      const res = await upload(org.token, name, Buffer.from("x"));
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode !== 201) continue;
      const file = res.json().attachment as Attachment;
      expect(file.filename).not.toMatch(/[/\\\p{Cc}]/u);
    }
  });

  it("asks who is uploading", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/attachments?filename=a.txt",
      headers: { "content-type": "application/octet-stream" },
      payload: Buffer.from("x"),
    });
    expect(res.statusCode).toBe(401);
  });
});
