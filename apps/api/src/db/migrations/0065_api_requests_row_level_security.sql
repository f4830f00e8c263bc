-- Row-level security for the platform's request bookkeeping (0064), as for every tenant table. A stored idempotent
-- answer is the organization's data; it is claimed, read and completed by the request role inside the organization's
-- confinement. The rate windows are written by the authentication step as the owner role (before any organization is
-- confined), so the request role gets nothing on them.
GRANT SELECT, INSERT, UPDATE, DELETE ON "idempotency_keys" TO cove_app;
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "idempotency_keys_tenant" ON "idempotency_keys"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "api_key_rate_windows" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "api_key_rate_windows_tenant" ON "api_key_rate_windows"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
