import { type ReportSection, reportsApi } from "@cove/contract/reports.ts";
import { type RouteDef, routePath } from "@cove/contract/routes.ts";
import { type UserListAnswer, usersApi } from "@cove/contract/users.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";
import { reportKeys, teamKey } from "../../../lib/query-keys.ts";
import { type ReportParams, toSearch } from "../components/report-params.ts";

/**
 * The report for a range, grouping and filters. While a changed view loads, the previous answer stays on screen
 * (marked as updating) instead of the whole page turning into a spinner.
 */
export function useReport(params: ReportParams) {
  return useQuery({
    queryKey: reportKeys.report(params),
    queryFn: ({ signal }) => {
      // In toSearch's fixed order, so the same view is the same URL.
      const { from, to, group, channel, agent, priority, tag } = params;
      return callRoute(reportsApi.report, { query: { from, to, group, channel, agent, priority, tag }, signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** Everyone on the team, by name, for the agent filter: a member who has left still has their past tickets. */
export function useTeamForFilter() {
  return useQuery({
    queryKey: teamKey,
    queryFn: ({ signal }) => callRoute(usersApi.list, { signal }),
    select: byName,
  });
}

function byName(answer: UserListAnswer) {
  return answer.users
    .filter((u) => u.status !== "invited")
    .map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() || u.email, active: u.status === "active" }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A CSV route's address as downloadWithSession reads it (under /api). */
const csvPath = (route: RouteDef) => routePath(route, undefined).slice("/api".length);

/** A section's CSV, exactly as its table view shows it (GET /reports/{section}.csv with the screen's query). */
export function downloadSectionCsv(section: ReportSection, params: ReportParams): Promise<void> {
  return downloadWithSession(
    `${csvPath(reportsApi.sectionCsv(section))}?${toSearch(params)}`,
    `${section}-${params.from}-${params.to}.csv`,
    "The CSV could not be downloaded. Try again in a moment.",
  );
}

/** One row per ticket of the range, with every figure (GET /reports/tickets.csv). */
export function downloadTicketsCsv(params: ReportParams): Promise<void> {
  return downloadWithSession(
    `${csvPath(reportsApi.ticketsCsv)}?${toSearch(params)}`,
    `tickets-${params.from}-${params.to}.csv`,
    "The tickets CSV could not be downloaded. Try again in a moment.",
  );
}
