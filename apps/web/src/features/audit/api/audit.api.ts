import { type AuditFilterQuery, auditActorsAnswer, auditListAnswer, auditVerifyAnswer } from "@cove/contract/audit.ts";
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";
import { getSession } from "../../../lib/session-storage.ts";

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
export async function downloadAuditCsv(filters: AuditFilterQuery): Promise<void> {
  const token = getSession()?.token;
  const response = await fetch(`/api/audit-log.csv${filterQuery(filters)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: "DOWNLOAD_FAILED",
      message: "The audit log could not be downloaded. Please try again.",
      fromServer: false,
    });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "audit-log.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
