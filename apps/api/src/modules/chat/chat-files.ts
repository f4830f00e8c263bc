import type { Attachment } from "@cove/contract/attachments.ts";
import type { RequestTx } from "../../platform/auth.ts";
import type { Db } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { organizationAt } from "../../platform/organizations.ts";
import type { ContactCtx, ContactPrincipal, TenantCtx } from "../../platform/tenancy.ts";
import { type FileContent, putAttachment, readChatFile } from "../attachments/index.ts";

/** A file sent in a live chat, as it arrived (its name as the sender gave it). */
export interface ChatFile {
  filename: string;
  bytes: FileContent;
}

/**
 * Keeps a chat message's file with it, in the message's transaction (the store types it by its bytes and cleans its
 * name). A visitor's file is theirs (contact_id): the contact role may write only such rows, into its own active chat.
 */
export function attachChatFile(
  ctx: Pick<TenantCtx, "orgId" | "db" | "actor">,
  sessionId: string,
  messageId: string,
  file: ChatFile,
): Promise<Attachment> {
  return putAttachment(ctx.db, ctx.orgId, {
    ticketId: null,
    commentId: null,
    contactId: ctx.actor.kind === "contact" ? ctx.actor.id : null,
    chatSessionId: sessionId,
    chatMessageId: messageId,
    filename: file.filename,
    bytes: file.bytes,
  });
}

const FILE = "File";

/** A file of one of the organization's chats, for its staff. */
export async function staffChatFile(ctx: Pick<TenantCtx, "orgId" | "db">, sessionId: string, fileId: string) {
  const file = await readChatFile(ctx.db, ctx.orgId, recordId(FILE, sessionId), recordId(FILE, fileId));
  if (!file) throw notFound(FILE);
  return file;
}

/** A file of the visitor's own chat, read as the visitor (row-level security: only their own chats' files). */
export async function visitorChatFile(
  db: Db,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  orgSlug: string,
  sessionId: string,
  fileId: string,
) {
  const org = await organizationAt(db, orgSlug, "Portal");
  if (org.id !== who.orgId) throw notFound(FILE);
  const file = await tx((ctx) => readChatFile(ctx.db, ctx.orgId, recordId(FILE, sessionId), recordId(FILE, fileId)));
  if (!file) throw notFound(FILE);
  return file;
}
