import type { Notification } from "@cove/contract/notifications.ts";
import { clsx } from "clsx";
import { AlarmClock, AtSign, Bell, Clock, MessageSquare, Siren, UserPlus } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { useMarkRead, useNotifications } from "../api/notifications.api.ts";

const WHAT: Record<Notification["type"], string> = {
  assigned: "assigned you",
  reply: "replied on",
  mention: "mentioned you on",
  chat_waiting: "is waiting in chat",
  escalated: "escalated",
  sla_warning: "warning on",
  sla_breached: "breached on",
};

const ICON = {
  assigned: UserPlus,
  reply: MessageSquare,
  mention: AtSign,
  chat_waiting: MessageSquare,
  escalated: Siren,
  sla_warning: Clock,
  sla_breached: AlarmClock,
};

function ago(iso: string, now: number): string {
  const minutes = Math.max(0, Math.round((now - new Date(iso).getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(iso).toLocaleDateString();
}

/**
 * The bell (docs/product.md): the member's notifications with an unread count, live. Opening one marks it read and goes to
 * what it is about. A plain disclosure rather than a menu library keeps the shell's bundle small.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const query = useNotifications();
  const markRead = useMarkRead();
  const unread = query.data?.unread_count ?? 0;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const now = Date.now();
  const items = query.data?.notifications ?? [];

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className={clsx(buttonClasses("ghost", "icon"), "relative")}
      >
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] font-semibold text-white"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <section
          id={panelId}
          aria-label="Notifications"
          className="absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-1.5rem)] rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            {unread > 0 && (
              <button
                type="button"
                onClick={() => markRead.mutate("all")}
                className="text-xs font-medium text-indigo-600 hover:text-indigo-800"
              >
                Mark all read
              </button>
            )}
          </div>
          {query.isError ? (
            <p className="px-4 py-3 text-sm text-rose-700">Notifications could not be loaded.</p>
          ) : items.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500">{query.isPending ? "Loading…" : "No notifications yet"}</p>
          ) : (
            <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
              {items.map((n) => {
                const Icon = ICON[n.type];
                return (
                  <li key={n.id}>
                    <Link
                      to={n.link}
                      onClick={() => {
                        setOpen(false);
                        if (!n.read) markRead.mutate(n.id);
                      }}
                      className={clsx("flex gap-3 px-4 py-3 hover:bg-slate-50", !n.read && "bg-indigo-50/60")}
                    >
                      <Icon className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                      <span className="min-w-0 flex-1 text-sm">
                        <span className="block text-slate-700">
                          <span className="font-medium text-slate-900">{n.actor_name}</span> {WHAT[n.type]}
                        </span>
                        <span className="block truncate font-medium text-slate-900">{n.title}</span>
                        {n.excerpt && <span className="block truncate text-slate-500">{n.excerpt}</span>}
                        <span className="block text-xs text-slate-400">{ago(n.created_at, now)}</span>
                      </span>
                      {!n.read && (
                        <span className="mt-1.5 size-2 shrink-0 rounded-full bg-indigo-600">
                          <span className="sr-only">Unread</span>
                        </span>
                      )}
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
