import type { Pagination } from "@cove/contract/tickets.ts";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";

const count = new Intl.NumberFormat("en-US");

export function TicketPagination({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  const { page, limit, total, pages, capped } = pagination;
  const from = total === 0 ? 0 : Math.min((page - 1) * limit + 1, total);
  const to = Math.min(page * limit, total);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row"
    >
      <p className="text-sm text-slate-700">
        Showing {count.format(from)} to {count.format(to)} of {count.format(total)}
        {capped ? "+" : ""} results
      </p>
      {capped && page >= pages ? (
        <p className="text-sm text-slate-500">Search shows the best of the newest matches: add a word to narrow it.</p>
      ) : null}
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
