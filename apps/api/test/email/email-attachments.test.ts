import type { Ticket } from "@cove/contract/tickets.ts";
import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { describe, expect, it } from "vitest";
import { purgeStaleUploads } from "../../src/modules/attachments/attachments.store.ts";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { addMember, bearer, createTicket, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import { EXE, PNG, uploader } from "../support/files.ts";

const { t, smtp } = testAppWithMail({ email: { inboundDomain: "in.cove.test" } });

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });

async function newOrg() {
  const org = await registerOrg(t.app);
  return { token: org.token, id: org.user.organizationId };
}

async function mailWith(
  attachments: { filename: string; content: Buffer; contentType?: string }[],
  text = "See files",
) {
  const from = `files-${unique()}@example.com`;
  const raw = await new MailComposer({
    from,
    to: "org@in.cove.test",
    subject: "Files",
    text,
    messageId: `<${unique()}@files>`,
    attachments,
  })
    .compile()
    .build();
  return { raw, from };
}

async function ticketOf(org: { id: string; token: string }, ticketId: string) {
  const res = await get(org.token, `/api/tickets/${ticketId}`);
  expect(res.statusCode).toBe(200);
  return res.json().ticket as Ticket;
}

describe("attachments of inbound email", () => {
  it("keeps them with the ticket, typed by their bytes, served only to the organization", async () => {
    const org = await newOrg();
    const { raw, from } = await mailWith([
      { filename: "photo.png", content: PNG, contentType: "image/png" },
      // A program that calls itself a picture, with a path and a right-to-left override in its name.
      { filename: "../../etc/\u202Egnp.exe", content: EXE, contentType: "image/png" },
      { filename: "Quittung für März.pdf", content: Buffer.from("%PDF-1.4\n%âãÏÓ\n"), contentType: "application/pdf" },
    ]);
    const outcome = await receiveMail(t.database.db, org.id, { raw, envelopeFrom: from, tag: null });
    if (outcome.result !== "ticket") throw new Error(outcome.result);
    const ticket = await ticketOf(org, outcome.ticketId);
    expect(ticket.attachments?.map((a) => [a.filename, a.content_type, a.comment_id])).toEqual([
      ["photo.png", "image/png", null],
      ["gnp.exe", "application/octet-stream", null],
      ["Quittung für März.pdf", "application/pdf", null],
    ]);
    const [png, exe, pdf] = ticket.attachments ?? [];
    const url = (id: string | undefined) => `/api/tickets/${ticket.id}/attachments/${id}`;

    const image = await get(org.token, url(png?.id));
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["content-disposition"]).toMatch(/^inline;/);
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const program = await get(org.token, url(exe?.id));
    expect(program.headers["content-type"]).toBe("application/octet-stream");
    expect(program.headers["content-disposition"]).toBe('attachment; filename="gnp.exe"');
    expect(program.headers["x-content-type-options"]).toBe("nosniff");

    const document = await get(org.token, url(pdf?.id));
    // Latin-1 fits the plain parameter (RFC 6266); the extended one is added only for names beyond it.
    expect(document.headers["content-disposition"]).toBe('attachment; filename="Quittung für März.pdf"');

    const agent = await addMember(t.database, org.id);
    expect((await get(agent.token, url(png?.id))).statusCode).toBe(200);
    const other = await newOrg();
    expect((await get(other.token, url(png?.id))).statusCode).toBe(404);
    expect((await get(org.token, `/api/tickets/${ticket.id}/attachments/nope`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: url(png?.id) })).statusCode).toBe(401);
  });

  it("keeps at most 10 files of 5 MB, and says on the ticket what was left out", async () => {
    const org = await newOrg();
    const files = Array.from({ length: 11 }, (_, i) => ({ filename: `n${i}.txt`, content: Buffer.from(`file ${i}`) }));
    const big = { filename: "big.bin", content: Buffer.alloc(5 * 1024 * 1024 + 1, 1) };
    const { raw, from } = await mailWith([big, ...files], "Here you go");
    const outcome = await receiveMail(t.database.db, org.id, { raw, envelopeFrom: from, tag: null });
    if (outcome.result !== "ticket") throw new Error(outcome.result);
    const ticket = await ticketOf(org, outcome.ticketId);
    expect(ticket.attachments).toHaveLength(10);
    expect(ticket.attachments?.map((a) => a.filename)).not.toContain("big.bin");
    expect(ticket.description).toBe(
      "Here you go\n\n[2 attachments were not kept: at most 10 files of 5 MB each, 50 MB in all.]",
    );
  });
});

describe("files on a reply", () => {
  const uploadTo = uploader(() => t.app);
  const upload = (token: string, ticketId: string, filename: string, bytes: Buffer) =>
    uploadTo(token, `/api/tickets/${ticketId}/attachments`, filename, bytes);

  it("uploads files, attaches them to the reply, and emails them with it", async () => {
    const org = await newOrg();
    const customer = `up-${unique()}@example.com`;
    const { id: ticketId } = await createTicket(t.app, org.token, { subject: "Manual", requester_email: customer });
    const png = await upload(org.token, ticketId, "diagram.png", PNG);
    expect(png.statusCode).toBe(201);
    expect(png.json().attachment).toMatchObject({
      filename: "diagram.png",
      content_type: "image/png",
      comment_id: null,
    });
    const pdf = await upload(org.token, ticketId, "manual.pdf", Buffer.from("%PDF-1.4 manual"));
    // Not on the ticket until the reply is sent.
    expect((await ticketOf(org, ticketId)).attachments).toEqual([]);

    const reply = await t.app.inject({
      method: "POST",
      url: `/api/tickets/${ticketId}/comments`,
      headers: bearer(org.token),
      payload: {
        body: "Here it is",
        is_public: true,
        attachment_ids: [png.json().attachment.id, pdf.json().attachment.id],
      },
    });
    expect(reply.statusCode).toBe(201);
    const commentId = reply.json().comment.id as string;
    const ticket = await ticketOf(org, ticketId);
    expect(ticket.attachments?.map((a) => [a.filename, a.comment_id])).toEqual([
      ["diagram.png", commentId],
      ["manual.pdf", commentId],
    ]);

    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(customer));
    const parsed = await simpleParser(mail?.raw ?? "");
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["diagram.png", "image/png"],
      ["manual.pdf", "application/pdf"],
    ]);
    expect(parsed.attachments[0]?.content.equals(PNG)).toBe(true);

    // An upload attaches once: a second reply naming it is refused, and so is another ticket's upload.
    const again = await t.app.inject({
      method: "POST",
      url: `/api/tickets/${ticketId}/comments`,
      headers: bearer(org.token),
      payload: { body: "Again", attachment_ids: [png.json().attachment.id] },
    });
    expect(again.statusCode).toBe(400);
    expect((await ticketOf(org, ticketId)).comments).toHaveLength(1);
  });

  it("drops uploads never sent with a reply after a day", async () => {
    const org = await newOrg();
    const { id: ticketId } = await createTicket(t.app, org.token, { requester_email: `p-${unique()}@example.com` });
    const old = (await upload(org.token, ticketId, "old.txt", Buffer.from("old"))).json().attachment.id as string;
    const fresh = (await upload(org.token, ticketId, "new.txt", Buffer.from("new"))).json().attachment.id as string;
    await t.database.executeSql("update attachments set created_at = now() - interval '25 hours' where id = $1", [old]);
    expect(await purgeStaleUploads(t.database.db)).toBeGreaterThanOrEqual(1);
    const { rows } = await t.database.executeSql("select id from attachments where id = any($1::uuid[])", [
      [old, fresh],
    ]);
    expect(rows).toEqual([{ id: fresh }]);
  });

  it("refuses empty and oversized files, and uploads to another organization's ticket", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const { id: ticketId } = await createTicket(t.app, org.token, { requester_email: `r-${unique()}@example.com` });
    expect((await upload(org.token, ticketId, "empty.txt", Buffer.alloc(0))).statusCode).toBe(400);
    expect((await upload(org.token, ticketId, "big.bin", Buffer.alloc(5 * 1024 * 1024 + 1))).statusCode).toBe(413);
    expect((await upload(other.token, ticketId, "x.txt", Buffer.from("x"))).statusCode).toBe(404);
    const theirs = await upload(other.token, ticketId, "x.txt", Buffer.from("x"));
    expect(theirs.json().code).toBe("NOT_FOUND");
  });
});
