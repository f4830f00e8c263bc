import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { UPLOADS_AT_ONCE_PER_ADDRESS, UPLOADS_AT_ONCE_PER_ORGANIZATION } from "@cove/contract/attachment-limits.ts";
import type { StartChatAnswer } from "@cove/contract/chat.ts";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { findOrCreateContact, startContactSession } from "../../src/modules/contacts/contacts.service.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import { bearer, client, createTicket, errorAnswer, newAddress, registerOrg, testAppForFile } from "../helpers.ts";
import { PNG, uploader } from "../support/files.ts";
import { addArticle } from "../support/kb-fixtures.ts";

const t = testAppForFile();

const call = client(() => t.app, { newAddressEachCall: true });
const upload = uploader(() => t.app);

/** The uploads of an organization that have stored a part so far (each one holds its slots). */
const uploadsWriting = async (orgId: string) =>
  (
    await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(distinct upload_id)::int as n from attachment_parts where organization_id = ${orgId}`,
    )
  )[0]?.n ?? 0;

/** The parts stored so far for an organization's uploads. */
const partsOf = async (orgId: string) =>
  (
    await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from attachment_parts where organization_id = ${orgId}`,
    )
  )[0]?.n ?? 0;

/** Waits until a condition holds (the server works while the test waits; nothing here is timed). */
async function until(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** An upload whose body is sent in two halves: the first now, the rest when finish() is called. */
function streamedUpload(token: string, url: string, bytes: Buffer, address: string) {
  const body = new PassThrough();
  let settled = false;
  const answer = t.app
    .inject({
      method: "POST",
      url: `${url}?filename=big.bin`,
      headers: { ...bearer(token), "content-type": "application/octet-stream", "content-length": String(bytes.length) },
      payload: body,
      remoteAddress: address,
    })
    .finally(() => {
      settled = true;
    });
  const half = Math.floor(bytes.length / 2);
  body.write(bytes.subarray(0, half));
  return {
    answer,
    settled: () => settled,
    finish: (): Promise<LightMyRequestResponse> => {
      body.end(bytes.subarray(half));
      return answer;
    },
  };
}

describe("uploads at once", () => {
  it("stores a file as it streams in, caps uploads per address and per organization, and keeps other tenants' reads going", async () => {
    const shop = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    await createTicket(t.app, other.token, { subject: "Another organization's ticket" });
    const ticket = await createTicket(t.app, shop.token);
    const url = `/api/tickets/${ticket.id}/attachments`;
    const orgId = shop.user.organizationId;
    // 600 KB each: more than two parts, so the first half alone is a part written before the upload ends.
    const files = Array.from({ length: UPLOADS_AT_ONCE_PER_ORGANIZATION }, () => randomBytes(600 * 1024));

    const address = newAddress();
    const uploads = [];
    for (const [i, bytes] of files.entries()) {
      // The first ones from one address, the others each from an address of its own.
      const from = i < UPLOADS_AT_ONCE_PER_ADDRESS ? address : newAddress();
      // This upload has stored a part, so it holds its slots (a new part of an earlier one would not say so).
      uploads.push(streamedUpload(shop.token, url, bytes, from));
      await until(async () => (await uploadsWriting(orgId)) > i);
      if (i === UPLOADS_AT_ONCE_PER_ADDRESS - 1) {
        const fromSame = await t.app.inject({
          method: "POST",
          url: `${url}?filename=photo.png`,
          headers: { ...bearer(shop.token), "content-type": "application/octet-stream" },
          payload: PNG,
          remoteAddress: address,
        });
        expect(fromSame.statusCode, fromSame.body).toBe(429);
        expect(fromSame.json()).toEqual(
          errorAnswer(
            `Too many files are being uploaded at once: at most ${UPLOADS_AT_ONCE_PER_ADDRESS} at a time. Try again when one has finished.`,
            "RATE_LIMITED",
          ),
        );
      }
    }
    // The organization has as many going as it may: one more, from anywhere, waits for one of them.
    const oneMore = await upload(shop.token, url, "photo.png", PNG);
    expect(oneMore.statusCode, oneMore.body).toBe(429);
    expect(oneMore.json().error).toBe(
      "Too many files are being uploaded to this organization at once. Try again in a moment.",
    );

    // Paused mid-stream, the uploads hold no transaction: another organization reads (and writes) meanwhile.
    const list = await call(other.token, "GET", "/api/tickets");
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((x: { subject: string }) => x.subject)).toEqual(["Another organization's ticket"]);
    expect((await createTicket(t.app, other.token, { subject: "Written meanwhile" })).subject).toBe(
      "Written meanwhile",
    );
    expect(uploads.some((u) => u.settled())).toBe(false);

    const answers = await Promise.all(uploads.map((u) => u.finish()));
    for (const [i, res] of answers.entries()) {
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().attachment.id as string;
      expect(res.json().attachment).toMatchObject({ filename: "big.bin", size: files[i]?.length });
      const file = await call(shop.token, "GET", `/api/tickets/${ticket.id}/attachments/${id}`);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(files[i] as Buffer)).toBe(true);
    }
    // Their slots are free again.
    expect((await upload(shop.token, url, "photo.png", PNG)).statusCode).toBe(201);
  });

  it("drops the stored parts of an upload its request refuses", async () => {
    const shop = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const theirs = await createTicket(t.app, other.token);
    const orgId = shop.user.organizationId;
    const refused = await upload(shop.token, `/api/tickets/${theirs.id}/attachments`, "big.bin", randomBytes(700_000));
    expect(refused.statusCode).toBe(404);
    await until(async () => (await partsOf(orgId)) === 0);
    expect(await partsOf(other.user.organizationId)).toBe(0);
  });
});

describe("the same limits on every upload route", () => {
  it("limits the reply-file route to 60 uploads a minute from one address, like every other upload route", async () => {
    const shop = await registerOrg(t.app);
    const orgId = shop.user.organizationId;
    const ticket = await createTicket(t.app, shop.token);
    const article = await addArticle(t, orgId);
    const chat = (
      await call(null, "POST", `/api/public/${shop.user.organizationSlug}/chat/sessions`, { name: "Lee" })
    ).json() as StartChatAnswer;
    const customer = await withSystem(t.database.db, orgId, "test", async (ctx) => {
      const contactId = await findOrCreateContact(ctx, { name: "Ana Ruiz", email: "ana@example.com" });
      return (await startContactSession(ctx, contactId, "portal", 86_400_000)).token;
    });
    const routes: [string, string][] = [
      [shop.token, `/api/tickets/${ticket.id}/attachments`],
      [shop.token, "/api/attachments"],
      [customer, "/api/portal/attachments"],
      [shop.token, `/api/chat/sessions/${chat.session.id}/files`],
      [chat.token, `/api/public/${shop.user.organizationSlug}/chat/sessions/${chat.session.id}/files`],
      [shop.token, `/api/kb/articles/${article.id}/files`],
    ];
    for (const [token, url] of routes) {
      const address = newAddress();
      const send = () =>
        t.app.inject({
          method: "POST",
          url: `${url}?filename=empty.txt`,
          headers: { ...bearer(token), "content-type": "application/octet-stream" },
          payload: Buffer.alloc(0),
          remoteAddress: address,
        });
      // Empty files: refused one by one (400), and counted all the same.
      for (let i = 0; i < 60; i++) {
        const res = await send();
        expect(res.statusCode, `${url} #${i}: ${res.body}`).toBe(400);
      }
      const over = await send();
      expect(over.statusCode, `${url}: ${over.body}`).toBe(429);
      expect(over.json().error).toMatch(/^Too many requests\. Please try again in /);
    }
  });

  it("counts a member's reply files among the files they keep waiting: two messages' worth", async () => {
    const shop = await registerOrg(t.app);
    const first = await createTicket(t.app, shop.token);
    const second = await createTicket(t.app, shop.token);
    // The default limit is 10 files a message: 20 may wait, across tickets and new tickets alike.
    for (let i = 0; i < 10; i++) {
      expect((await upload(shop.token, `/api/tickets/${first.id}/attachments`, `a${i}.png`, PNG)).statusCode).toBe(201);
      expect((await upload(shop.token, `/api/tickets/${second.id}/attachments`, `b${i}.png`, PNG)).statusCode).toBe(
        201,
      );
    }
    for (const url of [`/api/tickets/${first.id}/attachments`, "/api/attachments"]) {
      const refused = await upload(shop.token, url, "one-more.png", PNG);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toBe(
        "Too many files are waiting to be sent: send your message, or wait a day for unsent files to be dropped.",
      );
    }
  });
});
