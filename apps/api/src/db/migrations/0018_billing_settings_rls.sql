-- Row-level security for the billing and settings tables, as for every tenant table (0001, 0003, 0005, 0009).
-- billing_events and test_provider_objects are not tenant data: only the owner role (webhooks, the test provider) reads
-- them, so the request role gets no grant on them.
GRANT SELECT, INSERT, UPDATE, DELETE ON "subscriptions", "invoices", "organization_settings", "api_keys", "organization_exports" TO cove_app;
--> statement-breakpoint
ALTER TABLE "subscriptions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "subscriptions_tenant" ON "subscriptions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "invoices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "invoices_tenant" ON "invoices"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "organization_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_settings_tenant" ON "organization_settings"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "api_keys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "api_keys_tenant" ON "api_keys"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "organization_exports" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_exports_tenant" ON "organization_exports"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- billing_events notes which organization an event was for; the request role has no grant on it, and RLS is on all
-- the same, as on every table with an organization_id.
ALTER TABLE "billing_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "billing_events_tenant" ON "billing_events"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
