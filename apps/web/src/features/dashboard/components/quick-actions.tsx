import { type LucideIcon, MessagesSquare, TriangleAlert, UserRoundX, Users } from "lucide-react";
import { Link } from "react-router";

interface QuickAction {
  label: string;
  to: string;
  icon: LucideIcon;
  count?: number;
}

export function QuickActions({ unassigned, highPriority }: { unassigned?: number; highPriority?: number }) {
  const actions: QuickAction[] = [
    { label: "Unassigned tickets", to: "/tickets?assignee_id=unassigned", icon: UserRoundX, count: unassigned },
    { label: "High priority tickets", to: "/tickets?priority=high", icon: TriangleAlert, count: highPriority },
    { label: "Live chat", to: "/chat", icon: MessagesSquare },
    { label: "Manage team", to: "/users", icon: Users },
  ];
  return (
    <section aria-labelledby="quick-actions-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 id="quick-actions-heading" className="border-b border-slate-200 px-4 py-3 font-semibold text-slate-900">
        Quick Actions
      </h2>
      <ul className="p-2">
        {actions.map((action) => (
          <li key={action.to}>
            <Link
              to={action.to}
              className="flex items-center gap-3 rounded-md px-2 py-2 text-sm text-slate-700 hover:bg-slate-50 hover:text-slate-900"
            >
              <action.icon className="size-4 text-slate-400" aria-hidden="true" />
              <span className="flex-1">{action.label}</span>
              {action.count !== undefined && (
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
                  {action.count}
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
