import type { TicketStats } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { CalendarDays, CircleAlert, CircleCheck, Clock, Inbox, type LucideIcon, MailOpen, Users } from "lucide-react";
import { Link } from "react-router";

interface StatCard {
  title: string;
  value: string | undefined;
  icon: LucideIcon;
  tone: string;
  to?: string;
}

const count = new Intl.NumberFormat("en-US");

function formatHours(hours: number | null): string {
  return hours === null ? "N/A" : `${Math.round(hours)}h`;
}

export function statCards(stats: TicketStats | undefined, activeUsers: number | undefined): StatCard[] {
  const n = (value: number | undefined) => (value === undefined ? undefined : count.format(value));
  return [
    {
      title: "Total Tickets",
      value: n(stats?.total_tickets),
      icon: Inbox,
      tone: "bg-indigo-50 text-indigo-600",
      to: "/tickets",
    },
    {
      title: "Open Tickets",
      value: n(stats?.open_tickets),
      icon: MailOpen,
      tone: "bg-blue-50 text-blue-600",
      to: "/tickets?status=open",
    },
    {
      title: "Solved Today",
      value: n(stats?.tickets_today),
      icon: CircleCheck,
      tone: "bg-emerald-50 text-emerald-600",
      // No link (spec): the list has no "solved today" filter, and every solved ticket is not what the card counts.
    },
    {
      title: "Urgent Tickets",
      value: n(stats?.urgent_tickets),
      icon: CircleAlert,
      tone: "bg-red-50 text-red-600",
      to: "/tickets?priority=urgent",
    },
    { title: "Team Members", value: n(activeUsers), icon: Users, tone: "bg-violet-50 text-violet-600", to: "/users" },
    { title: "This Week", value: n(stats?.tickets_this_week), icon: CalendarDays, tone: "bg-sky-50 text-sky-600" },
    {
      title: "Avg Resolution",
      value: stats ? formatHours(stats.avg_resolution_hours) : undefined,
      icon: Clock,
      tone: "bg-amber-50 text-amber-600",
    },
  ];
}

export function StatCards({ cards }: { cards: StatCard[] }) {
  return (
    <ul aria-label="Ticket statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {cards.map((card) => {
        const body = (
          <>
            <span className={clsx("hidden size-10 shrink-0 items-center justify-center rounded-lg sm:flex", card.tone)}>
              <card.icon className="size-5" aria-hidden="true" />
            </span>
            <span className="min-w-0">
              <span className="block text-sm text-slate-600">{card.title}</span>
              <span
                className="block text-2xl font-semibold text-slate-900"
                aria-busy={card.value === undefined || undefined}
              >
                {card.value ?? "—"}
              </span>
            </span>
          </>
        );
        const box = "flex h-full items-center gap-4 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4";
        return (
          <li key={card.title}>
            {card.to ? (
              <Link
                to={card.to}
                className={clsx(box, "transition-colors hover:border-indigo-300 hover:bg-indigo-50/40")}
              >
                {body}
              </Link>
            ) : (
              <div className={box}>{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
