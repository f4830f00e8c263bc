-- The audit log is append-only for the app's roles: the request role reads and adds its organization's entries and
-- can neither change nor remove one (no UPDATE, DELETE or TRUNCATE). Only the owner (migrations, the daily retention
-- job, erasing an organization through the foreign key's cascade) deletes entries. Row-level security confines reads
-- and writes to the organization, as for every tenant table (0001). Customers' roles get nothing.
REVOKE ALL ON "audit_log" FROM cove_app, cove_contact;
--> statement-breakpoint
GRANT SELECT, INSERT ON "audit_log" TO cove_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "audit_log_id_seq" TO cove_app;
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "audit_log_tenant" ON "audit_log"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
