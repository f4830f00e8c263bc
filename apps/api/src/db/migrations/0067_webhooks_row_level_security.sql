-- Row-level security for webhooks and their deliveries, as for every tenant table (0001, 0005). Admins keep endpoints
-- through requests; a change's in-transaction handler adds its deliveries (the request role); the webhooks worker
-- claims and records attempts as the owner role, across organizations.
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhooks" TO cove_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "webhook_deliveries" TO cove_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "webhook_deliveries_seq_seq" TO cove_app;
--> statement-breakpoint
ALTER TABLE "webhooks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "webhooks_tenant" ON "webhooks"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "webhook_deliveries_tenant" ON "webhook_deliveries"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
