-- Reports (modules/tickets/tickets.reports.ts filteredTicketIds; docs/benchmarks.md "Reports"): with a filter
-- (channel, agent, priority, tag), the replies and surveys of a report keep the tickets that pass it among all the
-- organization's tickets (their comments and surveys in the range may belong to tickets created at any time). This
-- narrow index holds just what the filter reads (14 MB for the benchmark's 125,000 tickets), where the covering
-- index tickets_org_created_minutes_idx they were read from has fourteen columns (69 MB): about half the database CPU
-- of each of those statements. Drizzle cannot declare INCLUDE, hence custom SQL (as migrations 0074 and 0077).
CREATE INDEX "tickets_org_report_filter_idx" ON "tickets" USING btree ("organization_id")
  INCLUDE ("id", "source", "priority", "assignee_id", "tags");
