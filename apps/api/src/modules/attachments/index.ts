// The attachments module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "./attachments.http.ts";
export { attachmentRoutes } from "./attachments.routes.ts";
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
  listAttachments,
  listPublicAttachments,
  putAttachment,
  readArticleFile,
  readChatFile,
  readPublicAttachment,
  safeFilename,
} from "./attachments.store.ts";
