-- Row-level security for automation: rules and their run log, time-based rule marks, the misses log, SLA targets and
-- canned replies (as every tenant table: see 0001). Written as five migrations on the automation branch, joined here.
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
--> statement-breakpoint
-- Row-level security for the marks of time-based rules, as for every tenant table (0027). The scheduled job acts in
-- each organization through withSystem, as the request role.
GRANT SELECT, INSERT, UPDATE, DELETE ON "automation_time_marks" TO cove_app;
--> statement-breakpoint
ALTER TABLE "automation_time_marks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_time_marks_tenant" ON "automation_time_marks"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- Row-level security for the compact log of rules whose conditions did not hold, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "automation_misses" TO cove_app;
--> statement-breakpoint
ALTER TABLE "automation_misses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "automation_misses_tenant" ON "automation_misses"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- Row-level security for SLA targets, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "sla_targets" TO cove_app;
--> statement-breakpoint
ALTER TABLE "sla_targets" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "sla_targets_tenant" ON "sla_targets"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- Row-level security for canned replies, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "canned_replies" TO cove_app;
--> statement-breakpoint
ALTER TABLE "canned_replies" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "canned_replies_tenant" ON "canned_replies"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
