import { type AuditFilterQuery, auditApi } from "@cove/contract/audit.ts";
import { routePath } from "@cove/contract/routes.ts";
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

const auditKey = ["audit-log"] as const;

/** The filters as a query string (empty ones left out), for the CSV's download address. */
export function filterQuery(filters: AuditFilterQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function useAuditLog(filters: AuditFilterQuery) {
  return useInfiniteQuery({
    queryKey: [...auditKey, "entries", filters],
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      callRoute(auditApi.list, { query: { ...filters, cursor: pageParam || undefined }, signal }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useAuditActors() {
  return useQuery({
    queryKey: [...auditKey, "actors"],
    queryFn: ({ signal }) => callRoute(auditApi.actors, { signal }),
  });
}

export function useVerifyAuditLog() {
  return useMutation({ mutationFn: () => callRoute(auditApi.verify, {}) });
}

/** Downloads the filtered log as CSV (the browser saves the file). */
export function downloadAuditCsv(filters: AuditFilterQuery): Promise<void> {
  return downloadWithSession(
    `${routePath(auditApi.csv, undefined).slice("/api".length)}${filterQuery(filters)}`,
    "audit-log.csv",
    "The audit log could not be downloaded. Please try again.",
  );
}
