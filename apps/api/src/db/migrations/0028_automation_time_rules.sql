CREATE TABLE "automation_time_marks" (
	"organization_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"state_since" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_rules" ADD COLUMN "after_amount" integer;--> statement-breakpoint
ALTER TABLE "automation_rules" ADD COLUMN "after_unit" text;--> statement-breakpoint
ALTER TABLE "automation_time_marks" ADD CONSTRAINT "automation_time_marks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_time_marks" ADD CONSTRAINT "automation_time_marks_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_time_marks" ADD CONSTRAINT "automation_time_marks_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_time_marks_key" ON "automation_time_marks" USING btree ("organization_id","rule_id","ticket_id","state_since");