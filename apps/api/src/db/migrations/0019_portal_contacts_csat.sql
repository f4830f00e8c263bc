CREATE TABLE "csat_surveys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"agent_id" uuid,
	"token_hash" text,
	"solved_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rating" text,
	"comment" text,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_sign_in_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"ip" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD COLUMN "author_contact_id" uuid;--> statement-breakpoint
ALTER TABLE "csat_surveys" ADD CONSTRAINT "csat_surveys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csat_surveys" ADD CONSTRAINT "csat_surveys_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csat_surveys" ADD CONSTRAINT "csat_surveys_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csat_surveys" ADD CONSTRAINT "csat_surveys_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sign_in_links" ADD CONSTRAINT "portal_sign_in_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "csat_surveys_org_ticket_unique" ON "csat_surveys" USING btree ("organization_id","ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "csat_surveys_token_hash_unique" ON "csat_surveys" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "csat_surveys_org_answered_idx" ON "csat_surveys" USING btree ("organization_id","answered_at");--> statement-breakpoint
CREATE INDEX "csat_surveys_org_solved_idx" ON "csat_surveys" USING btree ("organization_id","solved_at");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sign_in_links_token_hash_unique" ON "portal_sign_in_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_sign_in_links_org_email_idx" ON "portal_sign_in_links" USING btree ("organization_id","email","created_at");--> statement-breakpoint
CREATE INDEX "portal_sign_in_links_ip_idx" ON "portal_sign_in_links" USING btree ("ip","created_at");--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_author_contact_id_contacts_id_fk" FOREIGN KEY ("author_contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;