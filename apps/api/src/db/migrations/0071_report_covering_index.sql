-- Reports (modules/tickets/tickets.reports.ts): the tickets created in a range with every column a report counts, read
-- off the index alone (an index-only scan) instead of the tickets' wide rows. Drizzle cannot declare INCLUDE, hence a
-- migration of its own (as tickets_org_sla_due_idx); docs/benchmarks.md, "Reports", has the measurement.
CREATE INDEX "tickets_org_created_report_idx" ON "tickets" USING btree ("organization_id", "created_at")
  INCLUDE ("id", "ticket_number", "source", "priority", "status", "assignee_id", "tags", "first_responded_at",
           "solved_at", "first_response_due_at", "resolution_due_at");
