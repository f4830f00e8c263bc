import { clsx } from "clsx";
import { ChevronLeft } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useFollow } from "../../../lib/realtime-provider.tsx";
import { useToastsBelow } from "../../../lib/toasts-below.ts";
import { useChatSessions, useChatStats } from "../api/chat.queries.ts";
import { ChatStatCards } from "../components/chat-stat-cards.tsx";
import { Conversation } from "../components/conversation.tsx";
import { SessionList } from "../components/session-list.tsx";

export const CONNECTION_BANNER =
  "Backend connection issue: live chat could not be loaded from the server. Use the refresh buttons to try again.";

/** Waiting times on screen move on by themselves. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Live chat: sessions on the left, the selected conversation on the right, four figures above. */
export function ChatRoute() {
  const { user } = useAuth();
  useFollow("chat");
  const sessions = useChatSessions();
  const stats = useChatStats();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("session");
  const [messagesFailed, setMessagesFailed] = useState(false);
  const now = useNow(15_000);
  // A failed call falls back to an empty list, with the banner.
  const list = sessions.data ?? [];
  const selected = list.find((s) => s.id === selectedId) ?? null;
  const failed = sessions.isError || stats.isError || messagesFailed;

  const select = (id: string | null) => setParams(id ? { session: id } : {}, { replace: true });
  const onFailure = useCallback((f: boolean) => setMessagesFailed(f), []);
  // On a phone toasts keep clear of the heading (and of the conversation's actions: Conversation).
  const header = useRef<HTMLElement>(null);
  useToastsBelow(header);

  return (
    // The page fills the window below the top bar (4rem) and main's padding (3rem) and never scrolls itself: the
    // session list and the thread scroll inside, so the reply box stays in view, as in other help desks' inboxes.
    <div className="flex h-[calc(100dvh-7rem)] flex-col gap-4">
      <title>Live Chat · Cove</title>
      <header ref={header}>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Live Chat</h1>
        {/* With a conversation open on a narrow screen, the thread gets the room of the intro and the figures. */}
        <p className={clsx("mt-1 text-sm text-slate-600", selected && "hidden lg:block")}>
          Conversations from your website's chat widget. The AI assistant answers first and hands over when a person is
          needed.
        </p>
      </header>
      {failed && <Alert>{CONNECTION_BANNER}</Alert>}
      <div className={clsx(selected && "hidden lg:block")}>
        <ChatStatCards stats={stats.data} />
      </div>
      {sessions.isPending ? (
        <Loading label="Loading chat sessions" />
      ) : (
        // Side by side from the large breakpoint; below it (a phone, a narrow window) the list, or the conversation
        // with a way back to the list.
        <div className="grid min-h-64 flex-1 grid-rows-[minmax(0,1fr)] gap-4 lg:grid-cols-[20rem_1fr]">
          <div className={clsx("flex min-h-0 min-w-0 flex-col [&>section]:flex-1", selected && "hidden lg:flex")}>
            <SessionList
              sessions={list}
              selectedId={selectedId}
              now={now}
              refreshing={sessions.isFetching}
              onSelect={select}
              onRefresh={() => {
                void sessions.refetch();
                void stats.refetch();
              }}
            />
          </div>
          {selected ? (
            <div className="flex min-h-0 min-w-0 flex-col gap-2 [&>section]:flex-1">
              <button
                type="button"
                onClick={() => select(null)}
                className="inline-flex items-center gap-1 self-start rounded-md text-sm font-medium text-indigo-600 hover:text-indigo-500 lg:hidden"
              >
                <ChevronLeft className="size-4" aria-hidden="true" />
                All sessions
              </button>
              <Conversation
                key={selected.id}
                session={selected}
                myId={user?.id}
                onClosed={() => select(null)}
                onFailure={onFailure}
              />
            </div>
          ) : (
            <div className="hidden items-center justify-center rounded-lg border border-dashed border-slate-300 p-8 text-sm text-slate-500 lg:flex">
              Select a session to see the conversation.
            </div>
          )}
        </div>
      )}
    </div>
  );
}
