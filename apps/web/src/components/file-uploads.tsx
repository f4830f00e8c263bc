import { formatBytes } from "@cove/contract/attachment-limits.ts";
import type { Attachment } from "@cove/contract/attachments.ts";
import { Paperclip, X } from "lucide-react";
import { type ClipboardEvent, type ComponentProps, type DragEvent, useRef, useState } from "react";
import { tooLargeMessage, uploadFile, useAttachmentLimits } from "../lib/uploads.ts";

/** A file being uploaded for a message, or uploaded (id), or refused (error). */
export interface Upload {
  key: number;
  name: string;
  size: number;
  progress: number;
  id?: string;
  error?: string;
}

/**
 * The files of a message being written: each is uploaded as soon as it is chosen, dropped or pasted (several at once,
 * progress for each), within the server's limits, which are said before anything is sent.
 */
export function useFileUploads(target: {
  url: string;
  token: string | undefined;
  /** Files that are kept as soon as they arrive (an article's): told here, and dropped from the list of uploads. */
  onUploaded?: (file: Attachment) => void;
}) {
  const limits = useAttachmentLimits();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const live = uploads.filter((u) => !u.error);

  function addFiles(files: File[]) {
    let room = limits.max_files - live.length;
    let total = live.reduce((sum, u) => sum + u.size, 0);
    for (const file of files) {
      const key = nextKey.current++;
      const update = (change: Partial<Upload>) =>
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
      const entry: Upload = { key, name: file.name, size: file.size, progress: 0 };
      // Refused here, with the limit it breaks, so nobody waits for an upload the server would refuse.
      const refusal =
        room <= 0
          ? `A message can have at most ${limits.max_files} files.`
          : file.size > limits.max_file_bytes
            ? tooLargeMessage(file.name, limits.max_file_bytes)
            : total + file.size > limits.max_message_bytes
              ? `The files of one message can be at most ${formatBytes(limits.max_message_bytes)} together.`
              : null;
      if (refusal) {
        setUploads((list) => [...list, { ...entry, error: refusal }]);
        continue;
      }
      room--;
      total += file.size;
      setUploads((list) => [...list, entry]);
      uploadFile({
        url: target.url,
        token: target.token,
        file,
        maxFileBytes: limits.max_file_bytes,
        onProgress: (progress) => update({ progress }),
      })
        .then((attachment: Attachment) => {
          if (!target.onUploaded) return update({ id: attachment.id, progress: 1 });
          setUploads((list) => list.filter((u) => u.key !== key));
          target.onUploaded(attachment);
        })
        .catch((error: unknown) => update({ error: error instanceof Error ? error.message : "Upload failed" }));
    }
  }

  return {
    uploads,
    limits,
    addFiles,
    /** The ids to send with the message. */
    ids: uploads.flatMap((u) => (u.id ? [u.id] : [])),
    uploading: uploads.some((u) => !u.id && !u.error),
    remove: (key: number) => setUploads((list) => list.filter((u) => u.key !== key)),
    clear: () => setUploads([]),
    /** Handlers for the area files are dropped on and the text box they are pasted into. */
    dropProps: {
      onDragOver: (event: DragEvent) => event.preventDefault(),
      onDrop: (event: DragEvent) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        addFiles([...event.dataTransfer.files]);
      },
    },
    onPaste: (event: ClipboardEvent) => {
      if (event.clipboardData.files.length > 0) addFiles([...event.clipboardData.files]);
    },
  };
}

export type FileUploads = ReturnType<typeof useFileUploads>;

/** The message's files with their progress, each removable. */
export function UploadList({ files, label }: { files: FileUploads; label: string }) {
  if (files.uploads.length === 0) return null;
  return (
    <ul aria-label={label} className="space-y-1">
      {files.uploads.map((u) => (
        <li key={u.key} className="flex items-center gap-2 text-xs text-slate-700">
          <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="max-w-64 truncate">{u.name}</span>
          {u.error ? (
            <span className="text-red-600">{u.error}</span>
          ) : u.id ? (
            <span className="text-emerald-700">Uploaded</span>
          ) : (
            <progress
              value={u.progress}
              max={1}
              aria-label={`Uploading ${u.name}`}
              className="h-1.5 w-24 accent-indigo-600"
            />
          )}
          <FileXButton label={`Remove ${u.name}`} onClick={() => files.remove(u.key)} />
        </li>
      ))}
    </ul>
  );
}

/** The small cross beside a file in a list, which takes it off (or dismisses its failure); `label` names the file. */
export function FileXButton({
  label,
  onClick,
  className = "text-slate-400 hover:text-slate-700",
}: {
  label: string;
  onClick: () => void;
  className?: string;
}) {
  return (
    <button type="button" aria-label={label} onClick={onClick} className={className}>
      <X className="size-3.5" aria-hidden="true" />
    </button>
  );
}

/**
 * A label that opens the browser's file picker: hands over the files chosen and clears the picker, so the same file can
 * be chosen again.
 */
export function FilePickerLabel({
  onFiles,
  children,
  ...props
}: { onFiles: (files: File[]) => void } & ComponentProps<"label">) {
  return (
    <label {...props}>
      {children}
      <input
        type="file"
        multiple
        className="sr-only"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = "";
        }}
      />
    </label>
  );
}

/** Choose files, with the limits said beside it (title) and to screen readers. */
export function AttachFilesButton({ files }: { files: FileUploads }) {
  const { limits } = files;
  const hint = `Up to ${limits.max_files} files, ${formatBytes(limits.max_file_bytes)} each, ${formatBytes(limits.max_message_bytes)} in all`;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <FilePickerLabel
        onFiles={files.addFiles}
        className="flex cursor-pointer items-center gap-1 text-sm text-slate-700 hover:text-slate-900"
      >
        <Paperclip className="size-4" aria-hidden="true" />
        Attach files
      </FilePickerLabel>
      <span className="text-xs text-slate-500">{hint}</span>
    </span>
  );
}
