// The attachments module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { attachmentRoutes } from "./attachments.routes.ts";

export { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "./attachments.http.ts";
export {
  addArticleFile,
  attachPending,
  customerFiles,
  deleteArticleFile,
  deleteCustomerFiles,
  type FileContent,
  filesOfChatMessages,
  filesOfComment,
  listArticleFiles,
  listPublicAttachments,
  putAttachment,
  readArticleFile,
  readChatFile,
  readPublicAttachment,
  safeFilename,
  ticketAttachmentsJson,
} from "./attachments.store.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(attachmentRoutes);
}
