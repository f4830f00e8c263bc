import { type PortalSessionAnswer, portalApi } from "@cove/contract/portal.ts";
import { type ReactNode, useCallback, useMemo } from "react";
import { callRoute } from "../../../lib/api-client.ts";
import { SessionQueryProvider } from "../../../lib/query-provider.tsx";
import { usePortalMe } from "../api/portal.queries.ts";
import { PortalContext, type PortalContextValue, usePortal } from "../api/portal-context.ts";
import { clearPortalSession, type PortalScope } from "../api/portal-session.ts";
import { brandStyle } from "./portal-brand.ts";
import { PortalHome } from "./portal-home.tsx";
import { PortalLiveProvider } from "./portal-live.tsx";

/** The portal for a stored session: its own query cache and realtime connection, for as long as it lasts. */
export function SignedInPortal({
  scope,
  session,
  banner,
}: {
  scope: PortalScope;
  session: PortalSessionAnswer;
  /** Shown above the portal (the demo's notice). */
  banner?: ReactNode;
}) {
  const { token } = session;
  const signOut = useCallback(
    (opts?: { serverEnded?: boolean }) => {
      if (!opts?.serverEnded) {
        // Ends the session on the server too; the portal forgets it here either way.
        void callRoute(portalApi.signOut, { token }).catch(() => {});
      }
      clearPortalSession(scope);
    },
    [scope, token],
  );
  const onSessionEnded = useCallback(() => signOut({ serverEnded: true }), [signOut]);
  const value = useMemo<PortalContextValue>(
    () => ({
      token,
      customer: session.customer,
      organization: session.organization,
      demo: scope.kind === "demo",
      signOut,
    }),
    [token, session.customer, session.organization, scope.kind, signOut],
  );

  return (
    // A new session gets a fresh, empty cache: one customer's tickets never show to the next.
    <SessionQueryProvider key={token}>
      <PortalContext.Provider value={value}>
        <PortalLiveProvider token={token} onSessionEnded={onSessionEnded}>
          <BrandedPortal banner={banner} />
        </PortalLiveProvider>
      </PortalContext.Provider>
    </SessionQueryProvider>
  );
}

/**
 * The signed-in portal in its organization's colours: those of /portal/me, so a logo or colour saved since the customer
 * signed in shows on their next visit (the session keeps the ones it started with until that answers).
 */
function BrandedPortal({ banner }: { banner?: ReactNode }) {
  const portal = usePortal();
  const organization = usePortalMe().data?.organization ?? portal.organization;
  return (
    <div style={brandStyle(organization.branding)} className="flex min-h-screen flex-col bg-slate-50">
      {banner}
      <PortalHome />
      <PortalFooter name={organization.name} />
    </div>
  );
}

export function PortalFooter({ name }: { name: string }) {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-2 px-4 py-5 text-sm text-slate-500 sm:px-6">
        <span>© {name}</span>
        <a href="/" className="hover:text-slate-700">
          Powered by Cove
        </a>
      </div>
    </footer>
  );
}
