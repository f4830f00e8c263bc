import type { Ticket } from "@cove/contract/tickets.ts";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveMail } from "../src/modules/email/email.inbound.ts";
import { addMember, bearer, createTestApp, registerOrg, type TestApp, unique } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ email: { inboundDomain: "in.cove.test" } });
});
afterAll(async () => {
  await t.close();
});

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });

async function newOrg() {
  const org = await registerOrg(t.app);
  return { token: org.token, id: org.user.organizationId };
}

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const EXE = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200, 0x90)]);

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
    expect(program.headers["content-disposition"]).toBe(`attachment; filename="gnp.exe"; filename*=UTF-8''gnp.exe`);
    expect(program.headers["x-content-type-options"]).toBe("nosniff");

    const document = await get(org.token, url(pdf?.id));
    expect(document.headers["content-disposition"]).toBe(
      `attachment; filename="Quittung f_r M_rz.pdf"; filename*=UTF-8''Quittung%20f%C3%BCr%20M%C3%A4rz.pdf`,
    );

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
    expect(ticket.description).toBe("Here you go\n\n[2 attachments were not kept: at most 10 files of 5 MB each.]");
  });
});
