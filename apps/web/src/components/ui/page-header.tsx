import { ArrowLeft } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { Link } from "react-router";
import { useToastsBelow } from "../../lib/toasts-below.ts";
import { buttonClasses } from "./button.tsx";

interface PageHeaderProps {
  /** The screen's name: its heading, and the browser tab's title ("Tickets · Cove"). */
  title: string;
  /** A line under the heading: what the screen holds, for whom. */
  lead?: ReactNode;
  /** Its buttons and links, at the right end (below the heading on a narrow screen). */
  actions?: ReactNode;
}

/** The top of a screen of the app: the tab's title, the heading with its lead, and the screen's own actions. */
export function PageHeader({ title, lead, actions }: PageHeaderProps) {
  const header = useRef<HTMLElement>(null);
  // On a phone the actions wrap below the heading: toasts keep clear of them.
  useToastsBelow(header);
  return (
    <>
      <title>{`${title} · Cove`}</title>
      <header ref={header} className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {lead && <p className="mt-1 max-w-3xl text-sm text-slate-600">{lead}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </header>
    </>
  );
}

/** "Back to List": the way up from a screen to the list or page it was opened from, above its heading. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  const link = useRef<HTMLAnchorElement>(null);
  useToastsBelow(link);
  return (
    <Link ref={link} to={to} className={buttonClasses("ghost", "sm", "-ml-3")}>
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}

/**
 * The row a detail screen starts with: its BackLink at the left and its own actions at the right ("Reply", "Edit").
 * On a phone toasts keep clear of it.
 */
export function ActionRow({ children }: { children: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  useToastsBelow(row);
  return (
    <div ref={row} className="flex flex-wrap items-center justify-between gap-3">
      {children}
    </div>
  );
}
