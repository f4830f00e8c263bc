import {
  BookOpen,
  Bot,
  ChartColumn,
  CreditCard,
  LayoutDashboard,
  type LucideIcon,
  MessagesSquare,
  Settings,
  Ticket,
  Users,
  Workflow,
} from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Hidden from agents (docs/product.md, "Roles"). */
  adminOnly?: boolean;
}

/** The ten sidebar entries, in the spec's order (Reports after Dashboard: issue 31); agents see eight. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Dashboard", to: "/dashboard", icon: LayoutDashboard },
  // Agents and admins alike (issue 31); read-only.
  { label: "Reports", to: "/reports", icon: ChartColumn },
  { label: "Tickets", to: "/tickets", icon: Ticket },
  { label: "Live Chat", to: "/chat", icon: MessagesSquare },
  { label: "AI Assistant", to: "/ai-assistant", icon: Bot },
  { label: "Knowledge Base", to: "/knowledge-base", icon: BookOpen },
  // Agents see automation read-only (docs/product.md, "Roles").
  { label: "Automation", to: "/automation", icon: Workflow },
  { label: "Users", to: "/users", icon: Users },
  { label: "Billing", to: "/billing", icon: CreditCard, adminOnly: true },
  { label: "Settings", to: "/settings", icon: Settings, adminOnly: true },
];
