-- Row-level security for the ticket tables, as for every tenant table (see 0001_row_level_security.sql).
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "tickets", "ticket_comments", "ticket_events" TO cove_app;
--> statement-breakpoint
ALTER TABLE "tickets" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "tickets_tenant" ON "tickets"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "ticket_comments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ticket_comments_tenant" ON "ticket_comments"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "ticket_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ticket_events_tenant" ON "ticket_events"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "ticket_events_seq_seq" TO cove_app;
