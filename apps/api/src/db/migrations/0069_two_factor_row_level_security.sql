-- Row-level security for two-factor sign-in, as for every tenant table (0001, 0056). A member's own second factor and
-- recovery codes are read and changed in their tenant transaction (set-up, turning it on and off, new recovery codes,
-- an admin's reset). Sign-in reads them before any organization is known, as the owner role, like sessions (0001).
-- Challenges are only ever used by sign-in (the owner role): the request role gets no grant on them at all.
GRANT SELECT, INSERT, UPDATE, DELETE ON "two_factor" TO cove_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "two_factor_recovery_codes" TO cove_app;
--> statement-breakpoint
ALTER TABLE "two_factor" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "two_factor_recovery_codes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "two_factor_challenges" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "two_factor_tenant" ON "two_factor"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY "two_factor_recovery_codes_tenant" ON "two_factor_recovery_codes"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY "two_factor_challenges_tenant" ON "two_factor_challenges"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
