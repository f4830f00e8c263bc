CREATE TABLE "email_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"kind" text,
	"ticket_id" uuid,
	"comment_id" uuid,
	"message_id" text,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"raw" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "email_acknowledge" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_comment_id_ticket_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."ticket_comments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_messages_org_direction_message_id_unique" ON "email_messages" USING btree ("organization_id","direction","message_id") WHERE "email_messages"."message_id" is not null;--> statement-breakpoint
CREATE INDEX "email_messages_org_ticket_idx" ON "email_messages" USING btree ("organization_id","ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "email_messages_org_comment_idx" ON "email_messages" USING btree ("organization_id","comment_id");--> statement-breakpoint
CREATE INDEX "email_messages_org_address_created_idx" ON "email_messages" USING btree ("organization_id","direction","address","created_at");