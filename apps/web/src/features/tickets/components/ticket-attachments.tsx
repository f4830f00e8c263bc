import { type Attachment, attachmentsApi } from "@cove/contract/attachments.ts";
import { routePath } from "@cove/contract/routes.ts";
import { useCallback } from "react";
import { AttachmentList } from "../../../components/attachment-list.tsx";
import { getSession } from "../../../lib/session-storage.ts";
import { fetchFile } from "../../../lib/uploads.ts";

/** The files that came with one message of a ticket, fetched with the staff session. */
export function TicketAttachments({ ticketId, files }: { ticketId: string; files: Attachment[] }) {
  const fetchOne = useCallback(
    (file: Attachment) =>
      fetchFile(
        routePath(attachmentsApi.file, { id: ticketId, attachmentId: file.id }),
        getSession()?.token,
        file.filename,
      ),
    [ticketId],
  );
  return <AttachmentList files={files} fetchFile={fetchOne} />;
}
