import { formatBytes } from "@cove/contract/attachment-limits.ts";
import { Paperclip } from "lucide-react";
import { useState } from "react";
import { FilePickerLabel, FileXButton } from "../../../components/file-uploads.tsx";
import { Button } from "../../../components/ui/button.tsx";
import type { useChatFiles } from "../api/chat.mutations.ts";

/** A message is sent only if it is not blank after trimming, and trimmed before sending. */
interface SendBoxProps {
  pending: boolean;
  onSend: (text: string) => Promise<unknown>;
  /** Called as the agent types (the visitor sees it). */
  onTyping?: () => void;
  /** Files sent into the chat: chosen, dropped or pasted. */
  files: ReturnType<typeof useChatFiles>;
}

export function SendBox({ pending, onSend, onTyping, files }: SendBoxProps) {
  const [text, setText] = useState("");
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || pending) return;
    try {
      await onSend(trimmed);
      setText("");
    } catch {
      // The failure is shown by the mutation; the text stays so it can be sent again.
    }
  };
  const { limits } = files;
  return (
    <form
      className="flex flex-wrap gap-2 border-t border-slate-200 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        files.send([...e.dataTransfer.files]);
      }}
    >
      {files.uploads.length > 0 && (
        <ul aria-label="Files being sent" className="w-full space-y-1">
          {files.uploads.map((u) => (
            <li key={u.key} className="flex items-center gap-2 text-xs text-slate-700">
              <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="max-w-64 truncate">{u.name}</span>
              {u.error ? (
                <>
                  <span className="text-red-600">{u.error}</span>
                  <FileXButton label={`Dismiss ${u.name}`} onClick={() => files.dismiss(u.key)} />
                </>
              ) : (
                <progress value={u.progress} max={1} aria-label={`Sending ${u.name}`} className="h-1.5 w-24" />
              )}
            </li>
          ))}
        </ul>
      )}
      <FilePickerLabel
        onFiles={files.send}
        className="flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        title={`Attach a file (at most ${formatBytes(limits.max_file_bytes)})`}
      >
        <Paperclip className="size-5" aria-hidden="true" />
        <span className="sr-only">Attach a file (at most {formatBytes(limits.max_file_bytes)})</span>
      </FilePickerLabel>
      <label htmlFor="chat-send-box" className="sr-only">
        Message
      </label>
      <input
        id="chat-send-box"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim()) onTyping?.();
        }}
        onPaste={(e) => {
          if (e.clipboardData.files.length > 0) files.send([...e.clipboardData.files]);
        }}
        maxLength={2000}
        placeholder="Type a message…"
        autoComplete="off"
        className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 px-3 text-sm focus:border-indigo-500 focus:outline-none"
      />
      <Button type="submit" pending={pending} disabled={text.trim() === ""}>
        Send
      </Button>
    </form>
  );
}
