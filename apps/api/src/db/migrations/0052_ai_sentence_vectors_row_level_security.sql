-- Row-level security for the knowledge bases' sentence vectors, as for every tenant table (0001, 0005). Vectors are
-- written and replaced, never changed: no UPDATE.
GRANT SELECT, INSERT, DELETE ON "ai_sentence_vectors" TO cove_app;
--> statement-breakpoint
ALTER TABLE "ai_sentence_vectors" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ai_sentence_vectors_tenant" ON "ai_sentence_vectors"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
