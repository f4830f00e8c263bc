import type { Attachment } from "@cove/contract/attachments.ts";
import { type Article, articleFilePath, kbApi } from "@cove/contract/kb.ts";
import { routePath } from "@cove/contract/routes.ts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { AttachmentList } from "../../../components/attachment-list.tsx";
import { AttachFilesButton, UploadList, useFileUploads } from "../../../components/file-uploads.tsx";
import { callRoute } from "../../../lib/api-client.ts";
import { getSession } from "../../../lib/session-storage.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { fetchFile } from "../../../lib/uploads.ts";
import { kbKeys } from "../api/kb.queries.ts";

/**
 * An article's files: staff see and open a draft's; the help center shows them once the article is published. With
 * editable, files are added (chosen, dropped; progress each) and removed here, each kept at once.
 */
export function ArticleFiles({ article, editable = false }: { article: Article; editable?: boolean }) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: kbKeys.article(article.id) });
  const uploads = useFileUploads({
    url: routePath(kbApi.attachFile, { id: article.id }),
    token: getSession()?.token,
    onUploaded: refresh,
  });
  const fetchOne = useCallback(
    (file: Attachment) => fetchFile(articleFilePath(article.id, file.id), getSession()?.token, file.filename),
    [article.id],
  );
  const remove = (file: Attachment) =>
    callRoute(kbApi.removeFile, { params: { id: article.id, fileId: file.id } })
      .then(refresh)
      .catch((error: unknown) => toastError(error, "The file could not be removed"));
  const files = article.attachments ?? [];
  if (!editable && files.length === 0) return null;
  return (
    <section aria-label="Files" className="space-y-2" {...(editable ? uploads.dropProps : {})}>
      <h2 className="text-sm font-semibold text-slate-900">Files</h2>
      {files.length === 0 && <p className="text-sm text-slate-500">No files yet.</p>}
      <AttachmentList files={files} fetchFile={fetchOne} onRemove={editable ? remove : undefined} />
      {editable && (
        <>
          <UploadList files={uploads} label="Files being added" />
          <AttachFilesButton files={uploads} />
          <p className="text-xs text-slate-500">
            {article.status === "published"
              ? "Anyone reading the article in the help center can open its files."
              : "Only your team sees a draft's files; they are public once the article is published."}
          </p>
        </>
      )}
    </section>
  );
}
