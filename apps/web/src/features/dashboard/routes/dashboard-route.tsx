import type { SessionUser } from "@cove/contract/auth.ts";
import { lazy, Suspense } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { isNewcomer } from "../../../lib/first-visit.ts";
import { CsatCard } from "../../csat/index.ts";
import { useTicketStats } from "../../tickets/index.ts";
import { TrialBanner, useTrialStatus } from "../../trial/index.ts";
import { useOrganizationStats } from "../api/dashboard.queries.ts";
import { QuickActions } from "../components/quick-actions.tsx";
import { RecentTickets } from "../components/recent-tickets.tsx";
import { StatCards, statCards } from "../components/stat-cards.tsx";
import { TrendCard } from "../components/trend-card.tsx";

/**
 * The getting-started checklist, for admins: its own chunk, fetched after the dashboard's first screen (it sits below
 * everything else, so it moves nothing when it arrives), and never by an agent.
 */
const GettingStarted = lazy(() =>
  import("../components/getting-started.tsx").then((m) => ({ default: m.GettingStarted })),
);

/** "Welcome back, Ana. Here is what is happening at Acme Outdoor Co." (one full stop, whatever the name ends with). */
export function greeting(user: SessionUser | null): string {
  const welcome = user && isNewcomer(user.id) ? "Welcome" : "Welcome back";
  const place = (user?.organizationName ?? "your help desk").replace(/[.!?\s]+$/u, "");
  return `${welcome}${user ? `, ${user.firstName}` : ""}. Here is what is happening at ${place}.`;
}

export function DashboardRoute() {
  const { user } = useAuth();
  const stats = useTicketStats();
  const organization = useOrganizationStats();
  const trial = useTrialStatus();
  const failure = stats.error ?? organization.error;
  // What decides the page's shape (a trial banner on top, an error, the trend card) comes before the rest is drawn, so
  // nothing already on screen is pushed down when it arrives. The recent tickets keep their room while they load.
  const shaped = !trial.isPending && !stats.isPending && !organization.isPending;

  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" lead={greeting(user)} />
      {shaped ? (
        <>
          <TrialBanner />
          {failure && (
            <Alert>
              <p className="font-semibold">Some figures could not be loaded</p>
              <p>{failure.message}</p>
            </Alert>
          )}
          <StatCards cards={statCards(stats.data, organization.data?.basicStats.active_users)} />
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 lg:col-span-2">
              <RecentTickets />
            </div>
            <div className="min-w-0 space-y-6">
              <QuickActions
                unassigned={stats.data?.unassigned_tickets}
                highPriority={stats.data?.high_priority_tickets}
              />
              {organization.data && <TrendCard trend={organization.data.ticketTrends} />}
              <CsatCard />
            </div>
          </div>
          {user?.role === "admin" && (
            <Suspense fallback={null}>
              <GettingStarted />
            </Suspense>
          )}
        </>
      ) : (
        <Loading label="Loading the dashboard" />
      )}
    </div>
  );
}
