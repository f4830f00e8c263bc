import { clsx } from "clsx";
import { type KeyboardEvent, useRef } from "react";

/** Spec: the portal's tabs. */
export const PORTAL_TABS = ["tickets", "knowledge-base", "chat"] as const;
export type PortalTab = (typeof PORTAL_TABS)[number];

export const tabId = (tab: PortalTab) => `portal-tab-${tab}`;
export const panelId = (tab: PortalTab) => `portal-panel-${tab}`;

/** A tablist with arrow-key moves (WAI-ARIA tabs pattern); the panels are rendered by the page. */
export function PortalTabs({
  current,
  ticketCount,
  onSelect,
}: {
  current: PortalTab;
  ticketCount: number | undefined;
  onSelect: (tab: PortalTab) => void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const labels: Record<PortalTab, string> = {
    tickets: ticketCount === undefined ? "My Tickets" : `My Tickets (${ticketCount})`,
    "knowledge-base": "Knowledge Base",
    chat: "Live Chat",
  };

  function onKeyDown(event: KeyboardEvent, index: number) {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    const step = moves[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = (index + step + PORTAL_TABS.length) % PORTAL_TABS.length;
    const tab = PORTAL_TABS[next];
    if (!tab) return;
    onSelect(tab);
    refs.current[next]?.focus();
  }

  return (
    <div role="tablist" aria-label="Support" className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {PORTAL_TABS.map((tab, i) => (
        <button
          key={tab}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={tab === current}
          aria-controls={panelId(tab)}
          tabIndex={tab === current ? 0 : -1}
          onClick={() => onSelect(tab)}
          onKeyDown={(e) => onKeyDown(e, i)}
          className={clsx(
            "-mb-px border-b-2 px-4 py-2.5 text-sm font-medium whitespace-nowrap",
            tab === current
              ? "border-[var(--portal-accent-text,#4f46e5)] text-slate-900"
              : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {labels[tab]}
        </button>
      ))}
    </div>
  );
}
