-- Row-level security for canned replies, as for every tenant table (0027).
GRANT SELECT, INSERT, UPDATE, DELETE ON "canned_replies" TO cove_app;
--> statement-breakpoint
ALTER TABLE "canned_replies" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "canned_replies_tenant" ON "canned_replies"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
