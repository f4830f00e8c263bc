-- Reports (modules/tickets/tickets.reports.ts, docs/benchmarks.md "Reports"): the tickets created before a report's
-- range and first answered or last solved in it are found off these two narrow indexes (an index-only scan of the
-- range's answers or solves, keeping those created before it) instead of every older ticket's entry of the covering
-- index tickets_org_created_minutes_idx. Drizzle cannot declare INCLUDE, hence custom SQL (as migration 0074).
CREATE INDEX "tickets_org_solved_report_idx" ON "tickets" USING btree ("organization_id", "solved_at")
  INCLUDE ("id", "created_at") WHERE "status" in ('solved', 'closed');
--> statement-breakpoint
CREATE INDEX "tickets_org_responded_report_idx" ON "tickets" USING btree ("organization_id", "first_responded_at")
  INCLUDE ("id", "created_at") WHERE "first_responded_at" is not null;
--> statement-breakpoint
-- The open backlog now with a filter (channel, agent, priority, tag) read off the open tickets alone, as it is without
-- one (tickets_org_open_created_idx, which stays for the other readers).
CREATE INDEX "tickets_org_open_created_report_idx" ON "tickets" USING btree ("organization_id", "created_at")
  INCLUDE ("source", "priority", "assignee_id", "tags") WHERE "status" in ('open', 'pending');
