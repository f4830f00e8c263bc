-- Row-level security for attachments, as for every tenant table (see 0001). The contact role gets no grant yet: the
-- portal does not show attachments.
GRANT SELECT, INSERT, UPDATE, DELETE ON "attachments" TO cove_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "attachments_seq_seq" TO cove_app;
--> statement-breakpoint
ALTER TABLE "attachments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "attachments_tenant" ON "attachments"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
