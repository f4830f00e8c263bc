-- Row-level security for the email channel's messages, as for every tenant table (see 0001). The contact role gets no
-- grant: a customer never reads Cove's mail records (the portal shows the comments themselves).
GRANT SELECT, INSERT, UPDATE, DELETE ON "email_messages" TO cove_app;
--> statement-breakpoint
ALTER TABLE "email_messages" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "email_messages_tenant" ON "email_messages"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- A comment's email status is part of the ticket's answer, which is cached by the data version (0023): a change of an
-- email row bumps it like a change of the comment would.
CREATE CONSTRAINT TRIGGER email_messages_data_version AFTER INSERT OR UPDATE OR DELETE ON "email_messages"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
