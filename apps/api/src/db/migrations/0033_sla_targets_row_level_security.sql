-- Row-level security for SLA targets, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "sla_targets" TO cove_app;
--> statement-breakpoint
ALTER TABLE "sla_targets" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "sla_targets_tenant" ON "sla_targets"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
