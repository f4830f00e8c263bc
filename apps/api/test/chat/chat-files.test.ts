import type { ChatMessage, StartChatAnswer, VisitorConversationAnswer } from "@cove/contract/chat.ts";
import { describe, expect, it } from "vitest";
import { client, naughtySample, type Org, orgForFile, testAppForFile } from "../helpers.ts";
import { PNG, uploader } from "../support/files.ts";

const t = testAppForFile({ attachmentLimits: { max_file_bytes: 4096, max_message_bytes: 8192, max_files: 3 } });
const shop = orgForFile(t);
const other = orgForFile(t);

const PDF = Buffer.from("%PDF-1.4 the manual");

const call = client(() => t.app, { newAddressEachCall: true });

const send = uploader(() => t.app);

async function startChat(org: Org) {
  const res = await call(null, "POST", `/api/public/${org.user.organizationSlug}/chat/sessions`, { name: "Lee Park" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as StartChatAnswer;
}

const visitorUrl = (org: Org, chat: StartChatAnswer) =>
  `/api/public/${org.user.organizationSlug}/chat/sessions/${chat.session.id}`;

describe("files in live chat", () => {
  it("a visitor and an agent send files; each sees them, images inline, others as downloads", async () => {
    const chat = await startChat(shop);
    const sent = await send(chat.token, `${visitorUrl(shop, chat)}/files`, "../screen shot.png", PNG);
    expect(sent.statusCode, sent.body).toBe(201);
    const mine = sent.json().message as ChatMessage;
    expect(mine).toMatchObject({ sender_type: "visitor", message: "screen shot.png" });
    expect(mine.attachment).toMatchObject({ filename: "screen shot.png", content_type: "image/png", size: PNG.length });

    // The agent sees the file in the conversation and opens it; the assistant did not answer a picture.
    const listed = await call(shop.token, "GET", `/api/chat/sessions/${chat.session.id}/messages`);
    const messages = listed.json().messages as ChatMessage[];
    expect(messages.map((m) => m.sender_type)).toEqual(["ai", "visitor"]);
    expect(messages[1]?.attachment?.id).toBe(mine.attachment?.id);
    const image = await call(shop.token, "GET", `/api/chat/sessions/${chat.session.id}/files/${mine.attachment?.id}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["content-disposition"]).toMatch(/^inline;/);
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const manual = await send(shop.token, `/api/chat/sessions/${chat.session.id}/files`, "manual.pdf", PDF);
    expect(manual.statusCode, manual.body).toBe(201);
    const theirs = manual.json().message as ChatMessage;
    expect(theirs).toMatchObject({ sender_type: "agent", message: "manual.pdf" });

    const conversation = (await call(chat.token, "GET", visitorUrl(shop, chat))).json() as VisitorConversationAnswer;
    expect(conversation.messages.at(-1)?.attachment).toMatchObject({
      filename: "manual.pdf",
      content_type: "application/pdf",
    });
    const download = await call(chat.token, "GET", `${visitorUrl(shop, chat)}/files/${theirs.attachment?.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toBe('attachment; filename="manual.pdf"');
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["access-control-allow-origin"]).toBe("*");
    expect(download.rawPayload.equals(PDF)).toBe(true);
    // The visitor reads it as well as the picture they sent.
    expect((await call(chat.token, "GET", `${visitorUrl(shop, chat)}/files/${mine.attachment?.id}`)).statusCode).toBe(
      200,
    );
  });

  it("serves a chat's files only to its visitor and its organization's staff (anyone else: 404)", async () => {
    const chat = await startChat(shop);
    const sent = await send(chat.token, `${visitorUrl(shop, chat)}/files`, "id.png", PNG);
    const fileId = (sent.json().message as ChatMessage).attachment?.id as string;

    const stranger = await startChat(shop);
    const asStranger = await call(stranger.token, "GET", `${visitorUrl(shop, chat)}/files/${fileId}`);
    expect(asStranger.statusCode).toBe(404);
    expect(asStranger.json().code).toBe("NOT_FOUND");
    // Nor by naming the file under their own chat.
    expect((await call(stranger.token, "GET", `${visitorUrl(shop, stranger)}/files/${fileId}`)).statusCode).toBe(404);

    const elsewhere = await startChat(other);
    expect((await call(elsewhere.token, "GET", `${visitorUrl(shop, chat)}/files/${fileId}`)).statusCode).toBe(404);
    expect((await call(elsewhere.token, "GET", `${visitorUrl(other, chat)}/files/${fileId}`)).statusCode).toBe(404);
    const otherStaff = await call(other.token, "GET", `/api/chat/sessions/${chat.session.id}/files/${fileId}`);
    expect(otherStaff.statusCode).toBe(404);
    expect(JSON.stringify(otherStaff.json())).not.toContain("id.png");

    // Each kind of token on the other's route is refused; no token at all is a 401.
    expect([403, 404]).toContain(
      (await call(chat.token, "GET", `/api/chat/sessions/${chat.session.id}/files/${fileId}`)).statusCode,
    );
    expect((await call(shop.token, "GET", `${visitorUrl(shop, chat)}/files/${fileId}`)).statusCode).toBe(403);
    expect((await call(null, "GET", `${visitorUrl(shop, chat)}/files/${fileId}`)).statusCode).toBe(401);
    // A visitor cannot send into someone else's chat either.
    expect((await send(stranger.token, `${visitorUrl(shop, chat)}/files`, "x.png", PNG)).statusCode).toBe(404);
    expect((await send(other.token, `/api/chat/sessions/${chat.session.id}/files`, "x.png", PNG)).statusCode).toBe(404);
  });

  it("refuses files in an ended chat, over the size limit, or empty, with clear messages", async () => {
    const chat = await startChat(shop);
    const big = await send(chat.token, `${visitorUrl(shop, chat)}/files`, "big.bin", Buffer.alloc(4097, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe("The file is too large: a file can be at most 4 KB.");
    const empty = await send(chat.token, `${visitorUrl(shop, chat)}/files`, "empty.txt", Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);

    const closed = await call(shop.token, "PUT", `/api/chat/sessions/${chat.session.id}`, { status: "closed" });
    expect(closed.statusCode).toBe(200);
    const late = await send(chat.token, `${visitorUrl(shop, chat)}/files`, "late.png", PNG);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe("This chat has ended. Start a new chat to write to us again.");
    expect((await send(shop.token, `/api/chat/sessions/${chat.session.id}/files`, "late.png", PNG)).statusCode).toBe(
      409,
    );
  });

  it("keeps naughty file names as safe text", async () => {
    const chat = await startChat(shop);
    for (const name of naughtySample().slice(0, 6)) {
      const res = await send(shop.token, `/api/chat/sessions/${chat.session.id}/files`, name, PNG);
      expect([201, 400], `${JSON.stringify(name)}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode !== 201) continue;
      const message = res.json().message as ChatMessage;
      expect(message.message).toBe(message.attachment?.filename);
      expect(message.message).not.toMatch(/[\\/"]|\p{Cc}/u);
    }
  });
});
