-- Row-level security for the marks of time-based rules, as for every tenant table (0027). The scheduled job acts in
-- each organization through withSystem, as the request role.
GRANT SELECT, INSERT, UPDATE, DELETE ON "automation_time_marks" TO cove_app;
--> statement-breakpoint
ALTER TABLE "automation_time_marks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_time_marks_tenant" ON "automation_time_marks"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
