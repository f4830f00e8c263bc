CREATE TABLE "ticket_totals" (
	"organization_id" uuid NOT NULL,
	"status" text NOT NULL,
	"priority" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"resolved_n" integer DEFAULT 0 NOT NULL,
	"resolved_seconds" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_totals_key" UNIQUE("organization_id","status","priority")
);
--> statement-breakpoint
ALTER TABLE "ticket_tallies" DROP CONSTRAINT "ticket_tallies_key";--> statement-breakpoint
ALTER TABLE "ticket_totals" ADD CONSTRAINT "ticket_totals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tallies" ADD CONSTRAINT "ticket_tallies_key" UNIQUE NULLS NOT DISTINCT("organization_id","assignee_id","status","priority");