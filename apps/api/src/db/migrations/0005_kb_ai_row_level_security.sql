-- Row-level security for the knowledge base and the AI assistant, as for every tenant table (0001, 0003).
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "kb_categories", "kb_articles", "ai_settings", "ai_answers" TO cove_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION kb_questions_text(text[]) TO cove_app;
--> statement-breakpoint
ALTER TABLE "kb_categories" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "kb_categories_tenant" ON "kb_categories"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "kb_articles" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "kb_articles_tenant" ON "kb_articles"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "ai_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ai_settings_tenant" ON "ai_settings"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "ai_answers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ai_answers_tenant" ON "ai_answers"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
