import { CONTACT_SEARCH_MAX } from "@cove/contract/contacts.ts";
import { Users } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { SearchBox } from "../../../components/search-box.tsx";
import { LoadError, Loading, Pager } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { formatDate, formatRelative } from "../../tickets/index.ts";
import { useContactList } from "../api/contacts.queries.ts";

/** /contacts: the organization's customers, searchable by name, email or company; `?search=` and `?page=`. */
export function ContactsRoute() {
  const [params, setParams] = useSearchParams();
  const search = (params.get("search") ?? "").trim().slice(0, CONTACT_SEARCH_MAX);
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const list = useContactList({ page, search: search || undefined });

  const show = (next: { page?: number; search?: string }, replace = false) => {
    const out = new URLSearchParams();
    const s = next.search ?? search;
    if (s) out.set("search", s);
    if ((next.page ?? 1) > 1) out.set("page", String(next.page));
    setParams(out, { replace });
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Contacts"
        lead="Your customers: everyone who wrote in by a ticket, email, chat or the customer portal."
      />
      <SearchBox
        label="Search contacts"
        placeholder="Search by name, email or company…"
        maxLength={CONTACT_SEARCH_MAX}
        value={search}
        onSearch={(s, replace) => show({ search: s ?? "", page: 1 }, replace)}
      />
      <section
        aria-label="Contact list"
        className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        {list.isPending ? (
          <Loading label="Loading contacts" />
        ) : list.isError ? (
          <LoadError
            className="space-y-3 p-4"
            title="Error loading contacts"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.data.contacts.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-16 text-center">
            <Users className="size-8 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">{search ? `No contacts match “${search}”` : "No contacts yet"}</p>
            <p className="max-w-sm text-sm text-slate-600">
              {search
                ? "Try another name, email or company."
                : "Customers appear here when they open a ticket, write in or sign in to your portal."}
            </p>
          </div>
        ) : (
          <div className={list.isPlaceholderData ? "opacity-60" : undefined}>
            <table className="w-full text-left text-sm">
              <TableHead
                className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase"
                cellClassName="px-4 py-3 font-medium"
                columns={[
                  "Contact",
                  { label: "Company", className: "hidden px-4 py-3 font-medium md:table-cell" },
                  "Tickets",
                  { label: "Last activity", className: "hidden px-4 py-3 font-medium sm:table-cell" },
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {list.data.contacts.map((c) => (
                  <tr key={c.id} className="hover:bg-slate-50">
                    <td className="max-w-0 px-4 py-3">
                      <Link
                        to={`/contacts/${c.id}`}
                        className="block truncate font-medium text-indigo-700 hover:underline"
                      >
                        {c.name}
                      </Link>
                      <span className="block truncate text-xs text-slate-500">{c.email ?? "No email"}</span>
                    </td>
                    <td className="hidden max-w-0 truncate px-4 py-3 text-slate-600 md:table-cell">
                      {c.company ?? "—"}
                    </td>
                    <td className="px-4 py-3 text-slate-700">{c.ticket_count}</td>
                    <td className="hidden px-4 py-3 text-slate-600 sm:table-cell">
                      {c.last_ticket_at ? formatRelative(c.last_ticket_at) : `Added ${formatDate(c.created_at)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pagination={list.data.pagination} noun="results" onPage={(p) => show({ page: p })} />
          </div>
        )}
      </section>
    </div>
  );
}
