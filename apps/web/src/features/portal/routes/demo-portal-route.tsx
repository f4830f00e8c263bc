import { portalApi } from "@cove/contract/portal.ts";
import { FlaskConical } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { callRoute } from "../../../lib/api-client.ts";
import { type PortalScope, savePortalSession, usePortalSession } from "../api/portal-session.ts";
import { PortalUnavailable } from "../components/portal-unavailable.tsx";
import { SignedInPortal } from "../components/signed-in-portal.tsx";

const DEMO: PortalScope = { kind: "demo" };

/**
 * /customer-portal (spec: the demo customer portal): the demo organization's real portal, signed in as its demo
 * customer without a link. When the server was restarted (the demo is reset, its sessions with it) a new session is
 * taken at once.
 */
export function DemoPortalRoute() {
  const session = usePortalSession(DEMO);
  const [error, setError] = useState<Error | null>(null);
  const start = useCallback(() => {
    setError(null);
    callRoute(portalApi.demoSession, { anonymous: true })
      .then((answer) => savePortalSession(DEMO, answer))
      .catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
  }, []);

  useEffect(() => {
    if (!session) start();
  }, [session, start]);

  if (error) return <PortalUnavailable error={error} retry={start} what="demo customer portal" />;
  if (!session) return <FullPageSpinner label="Opening the demo customer portal" />;
  return (
    <SignedInPortal
      scope={DEMO}
      session={session}
      banner={
        <aside
          aria-label="About this demo"
          className="border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900 sm:px-6"
        >
          <div className="mx-auto flex max-w-5xl flex-col gap-x-3 gap-y-1 sm:flex-row sm:items-center">
            <p className="flex min-w-0 flex-1 gap-2">
              <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                <strong>Demo customer portal</strong> · signed in as {session.customer.name}, a customer of{" "}
                {session.organization.name} · real data of the demo organization, shared by every visitor and put back
                when the server restarts
              </span>
            </p>
            <Link to="/register" className="shrink-0 pl-6 font-medium underline sm:pl-0">
              Start your own free trial
            </Link>
          </div>
        </aside>
      }
    />
  );
}
