-- Row-level security for invitations, as for every tenant table (0001, 0003, 0005, 0007).
GRANT SELECT, INSERT, UPDATE, DELETE ON "invitations" TO cove_app;
--> statement-breakpoint
ALTER TABLE "invitations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "invitations_tenant" ON "invitations"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
