import { csatApi } from "@cove/contract/csat.ts";
import { portalApi } from "@cove/contract/portal.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

/** A portal's organization (name, branding), for pages shown before sign-in. */
export function usePortalInfo(orgSlug: string) {
  return useQuery({
    queryKey: ["portal-public", "info", orgSlug],
    queryFn: async ({ signal }) =>
      (await callRoute(portalApi.info, { params: { orgSlug }, signal, anonymous: true })).organization,
  });
}

/** The survey of an emailed link (its token goes in the body). */
export function useSurvey(token: string) {
  return useQuery({
    queryKey: ["portal-public", "survey", token],
    queryFn: ({ signal }) => callRoute(csatApi.lookup, { body: { token }, signal, anonymous: true }),
    enabled: token.length >= 20,
  });
}
