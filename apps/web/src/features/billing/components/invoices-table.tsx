import { Download, ExternalLink } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TitledSection } from "../../../components/ui/titled-section.tsx";
import { downloadInvoicePdf, useInvoices } from "../api/billing.api.ts";
import { longDate, money } from "./billing-format.ts";
import { toastBillingFailure } from "./billing-toast.ts";

const STATUS: Record<string, string> = { paid: "Paid", open: "Unpaid", void: "Void", uncollectible: "Uncollectible" };

/** Invoices, newest first, with amounts and dates; each one downloads as a PDF. */
export function InvoicesTable() {
  const { data } = useInvoices();
  const [downloading, setDownloading] = useState<string | null>(null);
  const invoices = data?.invoices ?? [];
  const zone = data?.timezone;
  if (invoices.length === 0) return null;
  return (
    <TitledSection
      titleId="invoices-title"
      title="Invoices"
      className="rounded-xl border border-slate-200 bg-white shadow-sm"
      titleClassName="border-b border-slate-200 px-5 py-3 text-sm font-semibold text-slate-900"
    >
      <DataTable columns={["Date", "Invoice", "Period", "Amount", "Status", { label: "PDF", srOnly: true }]}>
        {invoices.map((i) => (
          <tr key={i.id}>
            <td className="px-5 py-2 whitespace-nowrap">{longDate(i.created_at, zone)}</td>
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
              {i.period_start && i.period_end
                ? `${longDate(i.period_start, zone)} – ${longDate(i.period_end, zone)}`
                : "—"}
            </td>
            <td className="px-5 py-2 whitespace-nowrap">{money(i.amount_due, i.currency)}</td>
            <td className="px-5 py-2 whitespace-nowrap">{STATUS[i.status] ?? i.status}</td>
            <td className="px-5 py-1 text-right whitespace-nowrap">
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Download invoice ${i.number ?? longDate(i.created_at, zone)} as PDF`}
                pending={downloading === i.id}
                onClick={async () => {
                  setDownloading(i.id);
                  try {
                    await downloadInvoicePdf(i.id);
                  } catch (error) {
                    toastBillingFailure("Failed to download the invoice", error);
                  } finally {
                    setDownloading(null);
                  }
                }}
              >
                {downloading !== i.id && <Download className="size-4" aria-hidden="true" />}
                PDF
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
    </TitledSection>
  );
}
