-- Row-level security for the automation tables, as for every tenant table (0001, 0003, 0016, 0018). Rules run in the
-- transaction of the ticket change that set them off, as the request role (a contact's change switches to it for its
-- handlers), so only cove_app needs grants.
GRANT SELECT, INSERT, UPDATE, DELETE ON "automation_rules", "automation_runs" TO cove_app;
--> statement-breakpoint
ALTER TABLE "automation_rules" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_rules_tenant" ON "automation_rules"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "automation_runs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_runs_tenant" ON "automation_runs"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
