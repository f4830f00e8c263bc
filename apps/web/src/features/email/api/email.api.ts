import { emailApi } from "@cove/contract/email.ts";
import { routePath } from "@cove/contract/routes.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

export const unfiledMailKey = ["email", "unfiled"] as const;

/** The latest inbound messages the receiver kept without filing (admins). */
export function useUnfiledMail() {
  return useQuery({
    queryKey: unfiledMailKey,
    queryFn: ({ signal }) => callRoute(emailApi.unfiled, { signal }),
  });
}

/** The emails received on a ticket: which of its messages came by email, and which have their HTML kept. */
export function useTicketEmails(ticketId: string) {
  return useQuery({
    queryKey: ["email", "ticket", ticketId],
    queryFn: ({ signal }) => callRoute(emailApi.ofTicket, { params: { id: ticketId }, signal }),
    staleTime: 60_000,
  });
}

/** A received email as it came (its HTML unsanitized: see OriginalEmail). */
export function useOriginalEmail(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ["email", "message", id],
    queryFn: ({ signal }) => callRoute(emailApi.original, { params: { id }, signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Saves the raw text kept of an unfiled message as a file (a download: the text is whatever a stranger sent). */
export function downloadUnfiled(id: string): Promise<void> {
  return downloadWithSession(
    routePath(emailApi.unfiledRaw, { id }).slice("/api".length),
    `message-${id}.eml`,
    "The message could not be downloaded.",
  );
}
