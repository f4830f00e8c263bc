import { formatBytes } from "@cove/contract/attachment-limits.ts";
import { type Attachment, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { Paperclip } from "lucide-react";
import { useEffect, useState } from "react";
import { toastError } from "../lib/toast-error.ts";
import { FileXButton } from "./file-uploads.tsx";

/** How a list fetches one of its files' bytes (with the reader's own token). */
export type FetchFile = (file: Attachment) => Promise<Blob>;

async function download(fetchFile: FetchFile, file: Attachment) {
  const url = URL.createObjectURL(await fetchFile(file));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const isImage = (file: Attachment) => (INLINE_IMAGE_TYPES as readonly string[]).includes(file.content_type);

/** An image file as a small picture (PNG, JPEG, GIF or WebP only: the server serves nothing else inline). */
function Thumbnail({ fetchFile, file }: { fetchFile: FetchFile; file: Attachment }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetchFile(file)
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
  }, [fetchFile, file]);
  return src ? (
    <img src={src} alt={file.filename} className="h-16 w-16 rounded object-cover ring-1 ring-slate-200" />
  ) : null;
}

/** The files that came with one message: images as thumbnails, each a download (and removable, where onRemove). */
export function AttachmentList({
  files,
  fetchFile,
  onRemove,
}: {
  files: Attachment[];
  fetchFile: FetchFile;
  onRemove?: (file: Attachment) => void;
}) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="mt-3 flex flex-wrap gap-2">
      {files.map((file) => (
        <li key={file.id} className="flex items-center gap-1">
          <button
            type="button"
            onClick={() => download(fetchFile, file).catch((error: unknown) => toastError(error, "Download failed"))}
            className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-2 py-1.5 text-left text-xs text-slate-700 hover:bg-slate-100"
          >
            {isImage(file) ? (
              <Thumbnail fetchFile={fetchFile} file={file} />
            ) : (
              <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
            )}
            <span className="max-w-48 truncate font-medium">{file.filename}</span>
            <span className="text-slate-500">{formatBytes(file.size)}</span>
          </button>
          {onRemove && (
            <FileXButton
              label={`Remove ${file.filename}`}
              onClick={() => onRemove(file)}
              className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
            />
          )}
        </li>
      ))}
    </ul>
  );
}
