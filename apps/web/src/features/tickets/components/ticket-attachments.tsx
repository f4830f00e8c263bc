import { type Attachment, attachmentPath, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { Paperclip } from "lucide-react";
import { useEffect, useState } from "react";
import { ApiError } from "../../../lib/api-client.ts";
import { getSession } from "../../../lib/session-storage.ts";
import { toastError } from "../../../lib/toast-error.ts";

/** A ticket's file, fetched with the session's token (the file's URL alone opens nothing). */
async function fetchFile(ticketId: string, file: Attachment): Promise<Blob> {
  const token = getSession()?.token;
  const response = await fetch(attachmentPath(ticketId, file.id), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: "DOWNLOAD_FAILED",
      message: `${file.filename} could not be downloaded.`,
      fromServer: false,
    });
  }
  return response.blob();
}

async function download(ticketId: string, file: Attachment) {
  const url = URL.createObjectURL(await fetchFile(ticketId, file));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const isImage = (file: Attachment) => (INLINE_IMAGE_TYPES as readonly string[]).includes(file.content_type);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** An image file as a small picture (PNG, JPEG, GIF or WebP only: the server serves nothing else inline). */
function Thumbnail({ ticketId, file }: { ticketId: string; file: Attachment }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetchFile(ticketId, file)
      .then((blob) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => {});
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [ticketId, file]);
  return src ? (
    <img src={src} alt={file.filename} className="h-16 w-16 rounded object-cover ring-1 ring-slate-200" />
  ) : null;
}

/** The files that came with one message of a ticket. */
export function TicketAttachments({ ticketId, files }: { ticketId: string; files: Attachment[] }) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="mt-3 flex flex-wrap gap-2">
      {files.map((file) => (
        <li key={file.id}>
          <button
            type="button"
            onClick={() => download(ticketId, file).catch((error: unknown) => toastError(error, "Download failed"))}
            className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-2 py-1.5 text-left text-xs text-slate-700 hover:bg-slate-100"
          >
            {isImage(file) ? (
              <Thumbnail ticketId={ticketId} file={file} />
            ) : (
              <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
            )}
            <span className="max-w-48 truncate font-medium">{file.filename}</span>
            <span className="text-slate-500">{size(file.size)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
