import { isUuid } from "@cove/contract/ids.ts";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useMyTickets, usePortalMe } from "../api/portal.queries.ts";
import { usePortal } from "../api/portal-context.ts";
import { ChatTab } from "./chat-tab.tsx";
import { DetailsDialog } from "./details-dialog.tsx";
import { HelpTab } from "./help-tab.tsx";
import { MyTickets } from "./my-tickets.tsx";
import { NewTicketDialog } from "./new-ticket-dialog.tsx";
import { PortalHeader } from "./portal-header.tsx";
import { PORTAL_TABS, type PortalTab, PortalTabs, panelId, tabId } from "./portal-tabs.tsx";
import { QuickCards } from "./quick-cards.tsx";
import { TicketView } from "./ticket-view.tsx";

/**
 * The spec's portal screen for a signed-in customer. What is shown lives in the address (`?tab=`, `?ticket=`, `?page=`,
 * `?q=`), so the back button and a reload keep the customer where they were.
 */
export function PortalHome() {
  const portal = usePortal();
  const me = usePortalMe();
  const customer = me.data?.customer ?? portal.customer;
  const organization = me.data?.organization ?? portal.organization;
  const [params, setParams] = useSearchParams();
  const tabParam = params.get("tab");
  const tab: PortalTab = PORTAL_TABS.find((t) => t === tabParam) ?? "tickets";
  const ticketId = params.get("ticket");
  const openTicket = ticketId && isUuid(ticketId) ? ticketId : null;
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const q = (params.get("q") ?? "").slice(0, 200);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState(false);
  const count = useMyTickets(page).data?.pagination.total;

  const go = (next: Record<string, string | null>, replace = false) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        for (const [k, v] of Object.entries(next)) {
          if (v === null) out.delete(k);
          else out.set(k, v);
        }
        return out;
      },
      { replace },
    );
  const selectTab = (t: PortalTab) => go({ tab: t === "tickets" ? null : t, ticket: null, q: null, page: null });

  return (
    <>
      <PortalHeader
        organization={organization}
        customer={customer}
        onSignOut={portal.demo ? undefined : () => portal.signOut()}
        onEditDetails={() => setEditing(true)}
      />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-5xl flex-1 space-y-6 px-4 py-6 focus:outline-none sm:px-6"
      >
        <title>{`${organization.name} support`}</title>
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Hello, {customer.name}</h1>
          <p className="mt-1 text-sm text-slate-600">How can we help you today?</p>
        </div>
        <QuickCards
          onSubmitTicket={() => setCreating(true)}
          onBrowseHelp={() => selectTab("knowledge-base")}
          onLiveChat={() => selectTab("chat")}
        />
        <div className="space-y-4">
          <PortalTabs current={tab} ticketCount={count} onSelect={selectTab} />
          <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
            {tab === "tickets" &&
              (openTicket ? (
                <TicketView id={openTicket} onBack={() => go({ ticket: null })} />
              ) : (
                <MyTickets
                  page={page}
                  onPage={(p) => go({ page: p === 1 ? null : String(p) })}
                  onOpen={(id) => go({ ticket: id })}
                  onSubmitTicket={() => setCreating(true)}
                />
              ))}
            {tab === "knowledge-base" && (
              <HelpTab orgSlug={organization.slug} q={q} onSearch={(s) => go({ q: s || null }, true)} />
            )}
            {tab === "chat" && <ChatTab onSubmitTicket={() => setCreating(true)} />}
          </div>
        </div>
      </main>
      <NewTicketDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(id) => go({ tab: null, ticket: id, page: null, q: null })}
      />
      <DetailsDialog customer={customer} open={editing} onOpenChange={setEditing} />
    </>
  );
}
