import { portalApi } from "@cove/contract/portal.ts";
import { useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { callRoute, errorText } from "../../../lib/api-client.ts";
import { SessionQueryProvider } from "../../../lib/query-provider.tsx";
import { usePortalInfo } from "../api/portal-public.queries.ts";
import { type PortalScope, savePortalSession, usePortalSession } from "../api/portal-session.ts";
import { PortalFrame } from "../components/portal-frame.tsx";
import { PortalUnavailable } from "../components/portal-unavailable.tsx";
import { SignInCard } from "../components/sign-in-card.tsx";
import { SignedInPortal } from "../components/signed-in-portal.tsx";

/** Links already spent by this page: React may run an effect twice, and a link works once. */
const spent = new Set<string>();

/** /portal/{org-slug}: an organization's customer portal; `?token=` is an emailed sign-in link being opened. */
export function PortalRoute() {
  const { orgSlug = "" } = useParams();
  const scope = useMemo<PortalScope>(() => ({ kind: "portal", orgSlug }), [orgSlug]);
  const session = usePortalSession(scope);
  const [params, setParams] = useSearchParams();
  const linkToken = params.get("token");
  const [problem, setProblem] = useState<string | undefined>();
  const [exchanging, setExchanging] = useState(false);

  useEffect(() => {
    if (!linkToken || spent.has(linkToken)) return;
    spent.add(linkToken);
    // The link's token leaves the address bar (and the history) at once.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("token");
        return next;
      },
      { replace: true },
    );
    setExchanging(true);
    callRoute(portalApi.session, { params: { orgSlug }, body: { token: linkToken }, anonymous: true })
      .then((answer) => savePortalSession(scope, answer))
      .catch((error: unknown) => setProblem(errorText(error, "This sign-in link did not work. Ask for a new one.")))
      .finally(() => setExchanging(false));
  }, [linkToken, orgSlug, scope, setParams]);

  if (exchanging || (linkToken && !spent.has(linkToken))) return <FullPageSpinner label="Signing you in" />;
  if (session && session.organization.slug === orgSlug) return <SignedInPortal scope={scope} session={session} />;
  return (
    <SessionQueryProvider>
      <SignedOut orgSlug={orgSlug} problem={problem} />
    </SessionQueryProvider>
  );
}

function SignedOut({ orgSlug, problem }: { orgSlug: string; problem?: string }) {
  const info = usePortalInfo(orgSlug);
  if (info.isPending) return <FullPageSpinner label="Loading the support portal" />;
  if (info.isError) return <PortalUnavailable error={info.error} retry={() => void info.refetch()} />;
  return (
    <PortalFrame organization={info.data}>
      <title>{`Sign in · ${info.data.name} support`}</title>
      <SignInCard organization={info.data} problem={problem} />
    </PortalFrame>
  );
}
