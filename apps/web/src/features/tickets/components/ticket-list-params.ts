import { TICKET_PRIORITIES, TICKET_STATUSES, ticketListQuery } from "@cove/contract/tickets.ts";
import type { TicketListParams } from "../api/tickets.queries.ts";

export type TicketFilters = Omit<TicketListParams, "page" | "limit">;

/** The orders the list offers; "updated" (the spec's) is the default and is left out of links. */
export const SORT_LABELS = { updated: "Last updated", sla_due: "SLA due soonest" } as const;

function pick<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((v) => v === value);
}

const assigneeField = ticketListQuery.shape.assignee_id;

/**
 * The list's filters and page, read from the address bar. A hand-edited or outdated link never breaks the page: a value
 * the API would refuse is simply left out (that filter shows "All").
 */
export function readListParams(query: URLSearchParams): TicketListParams {
  const page = Number(query.get("page"));
  const assignee = assigneeField.safeParse(query.get("assignee_id") ?? undefined);
  const search = query.get("search")?.trim().slice(0, 200);
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    status: pick(TICKET_STATUSES, query.get("status")),
    priority: pick(TICKET_PRIORITIES, query.get("priority")),
    assignee_id: assignee.success ? assignee.data : undefined,
    search: search === "" ? undefined : search,
    sort: query.get("sort") === "sla_due" ? "sla_due" : undefined,
  };
}

/** The address-bar form, in a fixed order and without defaults, so equal lists have equal links. */
export function writeListParams(params: TicketListParams): URLSearchParams {
  const query = new URLSearchParams();
  if (params.status) query.set("status", params.status);
  if (params.priority) query.set("priority", params.priority);
  if (params.assignee_id) query.set("assignee_id", params.assignee_id);
  if (params.search) query.set("search", params.search);
  if (params.sort && params.sort !== "updated") query.set("sort", params.sort);
  if (params.page > 1) query.set("page", String(params.page));
  return query;
}

/** Any filter change (and a change of order) starts again from the first page (spec). */
export function withFilters(params: TicketListParams, change: Partial<TicketFilters>): TicketListParams {
  return { ...params, ...change, page: 1 };
}

export function hasFilters(params: TicketListParams): boolean {
  return Boolean(params.status || params.priority || params.assignee_id || params.search);
}
