-- Row-level security: request work runs under the non-superuser role cove_app with app.org_id set for the
-- transaction, so a query that forgets its organization filter still sees only that organization's rows.
-- The migrating (owner) role keeps bypassing RLS; only the sign-in paths use it (docs/decisions).
DO $$
BEGIN
  CREATE ROLE cove_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;
--> statement-breakpoint
GRANT cove_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO cove_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "organizations", "users", "sessions", "password_reset_tokens" TO cove_app;
--> statement-breakpoint
ALTER TABLE "organizations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organizations_tenant" ON "organizations"
  USING ("id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "users_tenant" ON "users"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "sessions_tenant" ON "sessions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "password_reset_tokens_tenant" ON "password_reset_tokens"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
