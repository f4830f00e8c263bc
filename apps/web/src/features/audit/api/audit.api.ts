import { type AuditFilterQuery, auditActorsAnswer, auditListAnswer, auditVerifyAnswer } from "@cove/contract/audit.ts";
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

const auditKey = ["audit-log"] as const;

/** The filters as a query string (empty ones left out). */
export function filterQuery(filters: AuditFilterQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function useAuditLog(filters: AuditFilterQuery) {
  return useInfiniteQuery({
    queryKey: [...auditKey, "entries", filters],
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/audit-log${filterQuery(filters, pageParam ? { cursor: pageParam } : {})}`, {
        schema: auditListAnswer,
        signal,
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useAuditActors() {
  return useQuery({
    queryKey: [...auditKey, "actors"],
    queryFn: ({ signal }) => apiRequest("/audit-log/actors", { schema: auditActorsAnswer, signal }),
  });
}

export function useVerifyAuditLog() {
  return useMutation({ mutationFn: () => apiRequest("/audit-log/verify", { schema: auditVerifyAnswer }) });
}

/** Downloads the filtered log as CSV (the browser saves the file). */
export function downloadAuditCsv(filters: AuditFilterQuery): Promise<void> {
  return downloadWithSession(
    `/audit-log.csv${filterQuery(filters)}`,
    "audit-log.csv",
    "The audit log could not be downloaded. Please try again.",
  );
}
