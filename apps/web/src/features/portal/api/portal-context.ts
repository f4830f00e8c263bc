import type { PortalCustomer, PortalOrganization } from "@cove/contract/portal.ts";
import type { RouteAnswer, RouteDef } from "@cove/contract/routes.ts";
import { createContext, useContext } from "react";
import { ApiError, callRoute, type RouteInput } from "../../../lib/api-client.ts";

/** The signed-in customer's portal: its token, organization, and how to leave it. */
export interface PortalContextValue {
  token: string;
  customer: PortalCustomer;
  organization: PortalOrganization;
  /** The demo entry (/customer-portal): a shared demo customer, no sign-out. */
  demo: boolean;
  /** Ends the session here (the server's session too, unless it already ended). */
  signOut: (opts?: { serverEnded?: boolean }) => void;
}

export const PortalContext = createContext<PortalContextValue | null>(null);

export function usePortal(): PortalContextValue {
  const value = useContext(PortalContext);
  if (!value) throw new Error("usePortal outside a signed-in portal");
  return value;
}

/**
 * A call of a portal route (the contract's portalApi) as the signed-in customer; a refused token signs them out of the
 * portal (never out of a staff session).
 */
export async function portalRequest<R extends RouteDef>(
  portal: Pick<PortalContextValue, "token" | "signOut">,
  route: R,
  options: RouteInput<R> & { signal?: AbortSignal },
): Promise<RouteAnswer<R>> {
  try {
    return await callRoute(route, { ...options, token: portal.token });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) portal.signOut({ serverEnded: true });
    throw error;
  }
}
