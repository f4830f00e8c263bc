-- Row-level security for the suggested example questions, as for every tenant table (0001, 0005).
GRANT SELECT, INSERT, UPDATE, DELETE ON "ai_question_suggestions" TO cove_app;
--> statement-breakpoint
ALTER TABLE "ai_question_suggestions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ai_question_suggestions_tenant" ON "ai_question_suggestions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
