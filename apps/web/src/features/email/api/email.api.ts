import { unfiledMailAnswer } from "@cove/contract/email.ts";
import { useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";
import { getSession } from "../../../lib/session-storage.ts";

export const unfiledMailKey = ["email", "unfiled"] as const;

/** The latest inbound messages the receiver kept without filing (admins). */
export function useUnfiledMail() {
  return useQuery({
    queryKey: unfiledMailKey,
    queryFn: ({ signal }) => apiRequest("/email/unfiled", { schema: unfiledMailAnswer, signal }),
  });
}

/** Saves the raw text kept of an unfiled message as a file (a download: the text is whatever a stranger sent). */
export async function downloadUnfiled(id: string): Promise<void> {
  const token = getSession()?.token;
  const response = await fetch(`/api/email/unfiled/${encodeURIComponent(id)}/raw`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: "DOWNLOAD_FAILED",
      message: "The message could not be downloaded.",
      fromServer: false,
    });
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `message-${id}.eml`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
