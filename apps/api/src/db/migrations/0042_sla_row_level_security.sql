-- Row-level security for business hours, SLA recompute requests and SLA notices, as for every tenant table (0033).
-- The scheduled job works in each organization through withSystem, as the request role.
GRANT SELECT, INSERT, UPDATE, DELETE ON "business_hours", "sla_recomputes", "sla_notices" TO cove_app;
--> statement-breakpoint
ALTER TABLE "business_hours" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "business_hours_tenant" ON "business_hours"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "sla_recomputes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "sla_recomputes_tenant" ON "sla_recomputes"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "sla_notices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "sla_notices_tenant" ON "sla_notices"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- Tickets of organizations that already had targets get their due times stored by the sla-recompute job.
INSERT INTO "sla_recomputes" ("organization_id")
  SELECT DISTINCT "organization_id" FROM "sla_targets"
  WHERE "first_response_hours" IS NOT NULL OR "resolution_hours" IS NOT NULL
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The list sorted by SLA due time (sort=sla_due): soonest first, tickets with none last, then the usual order, in
-- full as the other list indexes hold theirs. The filters' columns are included, so a filtered list skips index
-- entries, not rows: checked with EXPLAIN on 300,000 tickets (docs/decisions/2026-11-25-sla-in-the-list.md).
CREATE INDEX "tickets_org_sla_due_idx" ON "tickets" USING btree
  ("organization_id", "sla_due_at" ASC NULLS LAST, "updated_at" DESC NULLS FIRST, "ticket_number" DESC NULLS FIRST)
  INCLUDE ("status", "priority", "assignee_id");
