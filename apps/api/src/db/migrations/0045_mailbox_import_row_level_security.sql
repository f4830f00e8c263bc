-- Row-level security for connected mailboxes, as for every tenant table (see 0001). The contact role gets no grant: a
-- customer never reads an organization's mailboxes.
GRANT SELECT, INSERT, UPDATE, DELETE ON "email_mailboxes" TO cove_app;
--> statement-breakpoint
ALTER TABLE "email_mailboxes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "email_mailboxes_tenant" ON "email_mailboxes"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
