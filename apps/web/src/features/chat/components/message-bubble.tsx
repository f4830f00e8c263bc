import type { Attachment } from "@cove/contract/attachments.ts";
import { type ChatMessage, chatFilePath } from "@cove/contract/chat.ts";
import { clsx } from "clsx";
import { useCallback, useState } from "react";
import { AttachmentList } from "../../../components/attachment-list.tsx";
import { MarkdownView } from "../../../components/markdown-view.tsx";
import { getSession } from "../../../lib/session-storage.ts";
import { fetchFile } from "../../../lib/uploads.ts";
import { timeOfDay } from "./chat-format.ts";
import { WrongAnswerDialog } from "./wrong-answer-dialog.tsx";

const senderLabel = (m: ChatMessage) =>
  m.sender_type === "agent" ? (m.sender_name ?? "Agent") : m.sender_type === "ai" ? "AI assistant" : "Visitor";

/**
 * One message: the agent's on the right; the visitor's and the assistant's on the left, told apart; Cove's centred.
 * Under each of the assistant's answers (those it logged, which a visitor may rate), "Wrong answer".
 */
export function MessageBubble({
  message,
  visitorName,
  sessionId,
}: {
  message: ChatMessage;
  visitorName: string;
  sessionId: string;
}) {
  const fetchOne = useCallback(
    (file: Attachment) => fetchFile(chatFilePath(sessionId, file.id), getSession()?.token, file.filename),
    [sessionId],
  );
  if (message.sender_type === "system") {
    return (
      <li className="flex justify-center" aria-label="Notice">
        <p className="max-w-md rounded-full bg-slate-100 px-3 py-1 text-center text-xs text-slate-600">
          {message.message}
        </p>
      </li>
    );
  }
  const fromAgent = message.sender_type === "agent";
  const who = message.sender_type === "visitor" ? visitorName : senderLabel(message);
  return (
    <li className={clsx("flex", fromAgent ? "justify-end" : "justify-start")}>
      <article
        aria-label={`Message from ${who}`}
        data-sender={message.sender_type}
        className={clsx(
          "max-w-[80%] rounded-2xl px-3 py-2 text-sm shadow-sm",
          fromAgent && "rounded-br-sm bg-indigo-600 text-white",
          message.sender_type === "visitor" && "rounded-bl-sm border border-slate-200 bg-white text-slate-900",
          message.sender_type === "ai" && "rounded-bl-sm border border-violet-200 bg-violet-50 text-slate-900",
        )}
      >
        <p className={clsx("mb-0.5 text-xs font-medium", fromAgent ? "text-indigo-100" : "text-slate-600")}>
          {who} · {timeOfDay(message.created_at)}
        </p>
        {message.attachment ? (
          // A file message: its text is the file's name, which the file itself shows.
          <div className="text-slate-900">
            <AttachmentList files={[message.attachment]} fetchFile={fetchOne} />
          </div>
        ) : message.sender_type === "ai" ? (
          // The assistant answers in its articles' Markdown; people's messages are their words, shown as typed.
          <MarkdownView source={message.message} chat />
        ) : (
          <p className="whitespace-pre-wrap break-words">{message.message}</p>
        )}
        {message.sources.length > 0 && (
          <ul className="mt-2 space-y-0.5 border-t border-violet-200 pt-1 text-xs">
            {message.sources.map((s) => (
              <li key={s.id}>
                <a href={s.url} target="_blank" rel="noreferrer" className="text-violet-700 underline">
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        )}
        {message.sender_type === "ai" && message.feedback !== undefined && (
          <WrongAnswer sessionId={sessionId} messageId={message.id} markedBefore={message.marked_wrong === true} />
        )}
      </article>
    </li>
  );
}

/** The "Wrong answer" button, or that the answer was marked wrong. */
function WrongAnswer({
  sessionId,
  messageId,
  markedBefore,
}: {
  sessionId: string;
  messageId: string;
  /** Marked already (by anyone, before this screen was opened): said so instead of offering it again. */
  markedBefore: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [marked, setMarked] = useState(markedBefore);
  if (marked) return <p className="mt-2 text-xs font-medium text-violet-800">Marked as a wrong answer</p>;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="mt-2 rounded text-xs font-medium text-violet-700 underline-offset-2 hover:underline"
      >
        Wrong answer
      </button>
      {open && (
        <WrongAnswerDialog
          sessionId={sessionId}
          messageId={messageId}
          open={open}
          onOpenChange={setOpen}
          onMarked={() => setMarked(true)}
        />
      )}
    </>
  );
}
