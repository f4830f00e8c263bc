DROP INDEX "users_email_unique";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_demo_unique" ON "organizations" USING btree ("is_demo") WHERE "organizations"."is_demo";--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_org_unique" ON "users" USING btree ("email","organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email") WHERE "users"."status" <> 'invited';