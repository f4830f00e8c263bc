-- Row-level security for the getting-started checklist's dismissals, as for every tenant table (0001, 0005). A member
-- dismisses it or brings it back: a row is written or deleted, never changed.
GRANT SELECT, INSERT, DELETE ON "onboarding_dismissals" TO cove_app;
--> statement-breakpoint
ALTER TABLE "onboarding_dismissals" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "onboarding_dismissals_tenant" ON "onboarding_dismissals"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
