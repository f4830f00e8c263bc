CREATE TABLE "sla_targets" (
	"organization_id" uuid NOT NULL,
	"priority" text NOT NULL,
	"first_response_hours" double precision,
	"resolution_hours" double precision,
	"business_hours" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sla_targets_key" UNIQUE("organization_id","priority")
);
--> statement-breakpoint
ALTER TABLE "sla_targets" ADD CONSTRAINT "sla_targets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;