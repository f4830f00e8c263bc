import { ExternalLink } from "lucide-react";
import { useInvoices } from "../api/billing.api.ts";
import { longDate, money } from "./billing-format.ts";

const STATUS: Record<string, string> = { paid: "Paid", open: "Unpaid", void: "Void", uncollectible: "Uncollectible" };

/** Invoices, newest first, with amounts and dates. */
export function InvoicesTable() {
  const { data } = useInvoices();
  const invoices = data?.invoices ?? [];
  if (invoices.length === 0) return null;
  return (
    <section aria-labelledby="invoices-title" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <h2 id="invoices-title" className="border-b border-slate-200 px-5 py-3 text-sm font-semibold text-slate-900">
        Invoices
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500 uppercase">
            <tr>
              <th className="px-5 py-2 font-medium">Date</th>
              <th className="px-5 py-2 font-medium">Invoice</th>
              <th className="px-5 py-2 font-medium">Period</th>
              <th className="px-5 py-2 font-medium">Amount</th>
              <th className="px-5 py-2 font-medium">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {invoices.map((i) => (
              <tr key={i.id}>
                <td className="px-5 py-2 whitespace-nowrap">{longDate(i.created_at)}</td>
                <td className="px-5 py-2 whitespace-nowrap">
                  {i.url ? (
                    <a
                      href={i.url}
                      target="_blank"
                      rel="noreferrer"
                      className="inline-flex items-center gap-1 text-indigo-600 hover:underline"
                    >
                      {i.number ?? "View"} <ExternalLink className="size-3" aria-hidden="true" />
                    </a>
                  ) : (
                    (i.number ?? "—")
                  )}
                </td>
                <td className="px-5 py-2 whitespace-nowrap text-slate-600">
                  {i.period_start && i.period_end ? `${longDate(i.period_start)} – ${longDate(i.period_end)}` : "—"}
                </td>
                <td className="px-5 py-2 whitespace-nowrap">{money(i.amount_due, i.currency)}</td>
                <td className="px-5 py-2 whitespace-nowrap">{STATUS[i.status] ?? i.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
