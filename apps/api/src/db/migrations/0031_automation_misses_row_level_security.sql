-- Row-level security for the compact log of rules whose conditions did not hold, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "automation_misses" TO cove_app;
--> statement-breakpoint
ALTER TABLE "automation_misses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_misses_tenant" ON "automation_misses"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
