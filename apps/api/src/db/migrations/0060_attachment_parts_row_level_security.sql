-- Row-level security for uploads' parts, as for every tenant table (0001, 0029). Parts are written by the app's own
-- role while an upload streams in, and dropped with their upload. A customer or visitor (0016, 0047) only reads the
-- parts of a file they can read: the attachments policy decides which upload ids they can name.
GRANT SELECT, INSERT, DELETE ON "attachment_parts" TO cove_app;
--> statement-breakpoint
GRANT SELECT ON "attachment_parts" TO cove_contact;
--> statement-breakpoint
ALTER TABLE "attachment_parts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "attachment_parts_tenant" ON "attachment_parts"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY "attachment_parts_contact_own" ON "attachment_parts" AS RESTRICTIVE TO cove_contact
  USING ("upload_id" IN (SELECT "upload_id" FROM "attachments"));
