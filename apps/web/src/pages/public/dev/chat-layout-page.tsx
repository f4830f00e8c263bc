import { clsx } from "clsx";
import { RefreshCw, Send, TriangleExclamationPoint, X } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { FigureCards } from "../../../components/ui/figure-cards.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { DevHeading, DevPage } from "./dev-page.tsx";

// Sample content only: this page checks how the live-chat screen's parts lay out, it talks to no server.
const STATS = [
  { label: "Active Chats", value: "2" },
  { label: "Closed Today", value: "9" },
  { label: "Avg Response", value: "1m 40s" },
  { label: "Total Sessions", value: "36" },
];

const SESSIONS = [
  {
    name: "Priya Shah",
    email: "priya@example.com",
    last: "Is there a way to change my delivery slot?",
    status: "active",
    time: "2m",
  },
  { name: "Marco Rossi", email: "marco@example.com", last: "Thanks, that fixed it!", status: "active", time: "8m" },
  {
    name: "Aiko Tanaka",
    email: "aiko@example.com",
    last: "Transferred to billing",
    status: "transferred",
    time: "21m",
  },
  { name: "Sam Lee", email: "sam@example.com", last: "Chat closed by agent", status: "closed", time: "1h" },
] as const;

const MESSAGES = [
  { from: "visitor", text: "Hi! Is there a way to change my delivery slot? I will be out on Thursday.", time: "10:02" },
  {
    from: "ai",
    text: "Yes. You can move a delivery up to 24 hours before the slot from your order page, under Delivery. Want me to send the link?",
    time: "10:02",
  },
  { from: "visitor", text: "The page says it is too late to change it.", time: "10:04" },
  {
    from: "agent",
    text: "Hi Priya, Jonas here. I have moved it to Friday between 9 and 12. Does that work?",
    time: "10:05",
  },
] as const;

const STATUS_STYLE = {
  active: "bg-emerald-50 text-emerald-700",
  transferred: "bg-amber-50 text-amber-800",
  closed: "bg-slate-100 text-slate-600",
} as const;

function StatusBadge({ status }: { status: keyof typeof STATUS_STYLE }) {
  return (
    <span className={clsx("rounded-full px-2 py-0.5 text-xs font-medium capitalize", STATUS_STYLE[status])}>
      {status}
    </span>
  );
}

/** Developer page: the live-chat screen's parts with sample content, for checking the layout at every width. */
export function ChatLayoutPage() {
  const selected = SESSIONS[0];
  return (
    <DevPage
      title="Chat layout test · Cove"
      description="Developer page: the parts of Cove's live-chat screen laid out with sample content."
    >
      <DevHeading title="Live chat layout">
        The live-chat screen's parts with sample content. Nothing here is connected: buttons do nothing.
      </DevHeading>

      <div className="mt-8 space-y-6 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 sm:p-6">
        <div
          role="note"
          className="flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
        >
          <TriangleExclamationPoint className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Backend connection issue.</strong> Sample of the banner shown when chats
            cannot be loaded.
          </p>
        </div>

        {/* The live-chat screen's own cards (ChatStatCards). */}
        <FigureCards cards={STATS} className="grid grid-cols-2 gap-4 lg:grid-cols-4" />

        <div className="grid grid-cols-1 overflow-hidden rounded-xl bg-white ring-1 ring-slate-200 lg:h-[34rem] lg:grid-cols-[20rem_minmax(0,1fr)]">
          <section
            aria-label="Chat sessions"
            className="flex min-h-0 flex-col border-b border-slate-200 lg:border-r lg:border-b-0"
          >
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
              <h2 className="text-sm font-semibold text-slate-900">
                Sessions <span className="font-normal text-slate-600">· 2 active</span>
              </h2>
              <Button variant="ghost" size="icon" aria-label="Refresh sessions">
                <RefreshCw className="size-4" aria-hidden="true" />
              </Button>
            </div>
            <ul className="max-h-64 overflow-y-auto lg:max-h-none lg:flex-1">
              {SESSIONS.map((session) => (
                <li key={session.email}>
                  <button
                    type="button"
                    aria-current={session === selected ? "true" : undefined}
                    className="block w-full border-l-2 border-transparent px-4 py-3 text-left hover:bg-slate-50 aria-[current=true]:border-indigo-600 aria-[current=true]:bg-indigo-50/60"
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate text-sm font-medium text-slate-900">{session.name}</span>
                      <span className="shrink-0 text-xs text-slate-600">{session.time}</span>
                    </span>
                    <span className="mt-0.5 block truncate text-sm text-slate-600">{session.last}</span>
                    <span className="mt-1.5 block">
                      <StatusBadge status={session.status} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>

          <section aria-label={`Conversation with ${selected.name}`} className="flex min-h-0 flex-col">
            <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
              <div className="min-w-0 flex-1">
                <h2 className="truncate text-sm font-semibold text-slate-900">{selected.name}</h2>
                <p className="truncate text-xs text-slate-600">{selected.email}</p>
              </div>
              <StatusBadge status={selected.status} />
              <Button variant="ghost" size="icon" aria-label="Refresh conversation">
                <RefreshCw className="size-4" aria-hidden="true" />
              </Button>
              <Button variant="secondary" size="sm">
                <X className="size-4" aria-hidden="true" />
                Close
              </Button>
            </div>
            <ol className="flex-1 space-y-4 overflow-y-auto p-4">
              {MESSAGES.map((message) => (
                <li
                  key={message.text}
                  className={clsx("flex flex-col", message.from === "visitor" ? "items-start" : "items-end")}
                >
                  <p
                    className={clsx(
                      "max-w-[80%] rounded-2xl px-4 py-2.5 text-sm",
                      message.from === "visitor" && "rounded-tl-sm bg-slate-100 text-slate-900",
                      message.from === "agent" && "rounded-tr-sm bg-indigo-600 text-white",
                      message.from === "ai" && "rounded-tr-sm bg-indigo-50 text-indigo-950 ring-1 ring-indigo-200",
                    )}
                  >
                    {message.text}
                  </p>
                  <span className="mt-1 text-xs text-slate-600">
                    {message.from === "visitor" ? selected.name : message.from === "ai" ? "AI assistant" : "Jonas"} ·{" "}
                    {message.time}
                  </span>
                </li>
              ))}
            </ol>
            <form className="flex gap-2 border-t border-slate-200 p-3" onSubmit={(event) => event.preventDefault()}>
              <label htmlFor="chat-layout-message" className="sr-only">
                Message
              </label>
              <input id="chat-layout-message" placeholder="Type a message…" className={inputClasses} />
              <Button type="submit" aria-label="Send message">
                <Send className="size-4" aria-hidden="true" />
              </Button>
            </form>
          </section>
        </div>
      </div>
    </DevPage>
  );
}
