import type { ChatSession } from "@cove/contract/chat.ts";
import { RefreshCw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { usePresence } from "../../../lib/realtime-provider.tsx";
import { useToastsBelow } from "../../../lib/toasts-below.ts";
import {
  useChatFiles,
  useChatToTicket,
  useCloseChatSession,
  useSendChatMessage,
  useTakeChatSession,
} from "../api/chat.mutations.ts";
import { useChatMessages } from "../api/chat.queries.ts";
import { ChatStatusBadge } from "./chat-badges.tsx";
import { MessageBubble } from "./message-bubble.tsx";
import { SendBox } from "./send-box.tsx";

export const CLOSE_QUESTION = "Are you sure you want to close this chat session?";

interface ConversationProps {
  session: ChatSession;
  myId: string | undefined;
  onClosed: () => void;
  onFailure: (failed: boolean) => void;
}

/** The selected conversation with refresh, status badge, Close (active only) and the send box. */
export function Conversation({ session, myId, onClosed, onFailure }: ConversationProps) {
  // Follows the conversation live; who else is in it (the visitor, teammates) and who is typing.
  const { viewers, typing } = usePresence(`chat_session:${session.id}`);
  const typists = viewers.filter((v) => v.typing).map((v) => v.name);
  const messages = useChatMessages(session.id);
  const send = useSendChatMessage(session.id);
  const chatFiles = useChatFiles(session.id);
  const close = useCloseChatSession();
  const take = useTakeChatSession();
  const toTicket = useChatToTicket();
  const navigate = useNavigate();
  const createTicket = () =>
    toTicket.mutate(session.id, {
      onSuccess: (answer) =>
        toast.success(`Ticket #${answer.ticket_number} created from this chat`, {
          action: { label: "Open", onClick: () => void navigate(`/tickets/${answer.ticket_id}`) },
        }),
    });
  const [confirming, setConfirming] = useState(false);
  // On a phone the conversation's actions (and "All sessions" above them) sit near the top: toasts keep clear of them.
  const header = useRef<HTMLElement>(null);
  useToastsBelow(header);
  const end = useRef<HTMLLIElement>(null);
  const active = session.status === "active";
  const count = messages.data?.length ?? 0;

  useEffect(() => onFailure(messages.isError), [messages.isError, onFailure]);
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView?.({ block: "end" });
  }, [count]);

  return (
    <section
      aria-label={`Chat with ${session.visitor_name}`}
      className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white"
    >
      <header
        ref={header}
        className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3"
      >
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 font-semibold text-slate-900">
            <span className="truncate">{session.visitor_name}</span>
            <ChatStatusBadge status={session.status} />
          </h2>
          {session.visitor_email && <p className="truncate text-sm text-slate-500">{session.visitor_email}</p>}
        </div>
        <div className="flex items-center gap-2">
          <Button
            variant="ghost"
            size="sm"
            aria-label="Refresh conversation"
            pending={messages.isFetching}
            onClick={() => void messages.refetch()}
          >
            <RefreshCw className="size-4" aria-hidden="true" />
          </Button>
          {active && session.assigned_agent?.id !== myId && (
            <Button variant="secondary" size="sm" pending={take.isPending} onClick={() => take.mutate(session.id)}>
              Take
            </Button>
          )}
          {session.ticket_id ? (
            <Link to={`/tickets/${session.ticket_id}`} className="text-sm font-medium text-indigo-600 hover:underline">
              Open ticket
            </Link>
          ) : (
            session.visitor_email && (
              <Button variant="secondary" size="sm" pending={toTicket.isPending} onClick={createTicket}>
                Create ticket
              </Button>
            )
          )}
          {active && (
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
              Close
            </Button>
          )}
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto bg-slate-50 p-4">
        {messages.isPending ? (
          <div className="flex justify-center py-8 text-indigo-600">
            <Spinner className="size-5" label="Loading messages" />
          </div>
        ) : (
          <ul className="space-y-3">
            {(messages.data ?? []).map((m) => (
              <MessageBubble key={m.id} message={m} visitorName={session.visitor_name} sessionId={session.id} />
            ))}
            <li ref={end} aria-hidden="true" />
          </ul>
        )}
      </div>
      {typists.length > 0 && (
        <p className="px-4 pt-2 text-xs text-slate-500" aria-live="polite">
          {typists.join(", ")} {typists.length === 1 ? "is" : "are"} typing…
        </p>
      )}
      {active && (
        <SendBox
          pending={send.isPending}
          onSend={(text) => send.mutateAsync(text)}
          onTyping={typing}
          files={chatFiles}
        />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={CLOSE_QUESTION}
        description="The visitor can no longer write in it."
        confirmLabel="Close session"
        tone="danger"
        pending={close.isPending}
        onConfirm={() =>
          close.mutate(session.id, {
            onSuccess: () => {
              setConfirming(false);
              onClosed();
            },
            onError: () => setConfirming(false),
          })
        }
      />
    </section>
  );
}
