-- Row-level security for the organization's billing details, as for the other billing tables (0018). The contact role
-- gets no grant: a customer never reads an organization's billing address.
GRANT SELECT, INSERT, UPDATE, DELETE ON "billing_details" TO cove_app;
--> statement-breakpoint
ALTER TABLE "billing_details" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "billing_details_tenant" ON "billing_details"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
