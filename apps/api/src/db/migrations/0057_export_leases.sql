ALTER TABLE "organization_exports" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "organization_exports" ADD COLUMN "lease_until" timestamp with time zone;