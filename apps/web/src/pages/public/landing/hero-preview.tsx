import { BookOpen, Bot } from "lucide-react";

const CONVERSATIONS = [
  {
    name: "Priya Shah",
    subject: "Change delivery address",
    badge: "AI resolved",
    tone: "bg-emerald-50 text-emerald-700",
  },
  { name: "Tom Becker", subject: "Refund for a double charge", badge: "Needs you", tone: "bg-amber-50 text-amber-800" },
  { name: "Lena Ortiz", subject: "Bulk order discount?", badge: "Open", tone: "bg-slate-100 text-slate-700" },
];

/** A drawing of the inbox, made of markup so it stays sharp and costs no image download. */
export function HeroPreview() {
  return (
    <div
      role="img"
      aria-label="Preview of the Cove inbox: the AI assistant answers a customer from a help article, a refund question waits for an agent."
      className="relative"
    >
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-gradient-to-tr from-indigo-200/60 via-sky-100/60 to-transparent blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-indigo-900/10">
        <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-3">
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="ml-3 text-xs font-medium text-slate-500">Inbox · 3 open</span>
        </div>
        <div className="grid grid-cols-1 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <ul className="hidden border-r border-slate-200 sm:block">
            {CONVERSATIONS.map((c, index) => (
              <li
                key={c.name}
                className={index === 0 ? "border-l-2 border-indigo-600 bg-indigo-50/60 px-3 py-3" : "px-3 py-3"}
              >
                <p className="text-sm font-medium text-slate-900">{c.name}</p>
                <p className="truncate text-xs text-slate-600">{c.subject}</p>
                <span className={`mt-1.5 inline-block rounded px-1.5 py-0.5 text-[11px] font-medium ${c.tone}`}>
                  {c.badge}
                </span>
              </li>
            ))}
          </ul>
          <div className="space-y-4 p-4 sm:p-5">
            <div className="max-w-[85%] rounded-2xl rounded-tl-sm bg-slate-100 px-4 py-3 text-sm text-slate-800">
              Hi! I just ordered, can I still change the delivery address on order #4821?
            </div>
            <div className="ml-auto max-w-[90%] space-y-2">
              <div className="rounded-2xl rounded-tr-sm bg-indigo-600 px-4 py-3 text-sm text-white">
                Yes: orders can be changed until they ship, and #4821 has not shipped yet. I have updated the address to
                the one you sent.
              </div>
              <div className="flex flex-wrap items-center justify-end gap-2 text-[11px] text-slate-600">
                <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-700">
                  <Bot className="size-3" aria-hidden="true" />
                  AI · 94% confident
                </span>
                <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5">
                  <BookOpen className="size-3" aria-hidden="true" />
                  Shipping &amp; delivery FAQ
                </span>
              </div>
            </div>
            <div className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-500">
              Reply to Priya…
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
