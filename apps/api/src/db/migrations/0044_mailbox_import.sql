CREATE TABLE "email_mailboxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"tls" boolean NOT NULL,
	"username" text NOT NULL,
	"password_sealed" text,
	"folder" text DEFAULT 'INBOX' NOT NULL,
	"status" text DEFAULT 'importing' NOT NULL,
	"last_error" text,
	"uid_validity" bigint,
	"history_before_uid" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"remaining" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"run_started_at" timestamp with time zone,
	"run_done" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"failing_uid" bigint,
	"failing_attempts" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"history_done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "history" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "email_mailboxes" ADD CONSTRAINT "email_mailboxes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_mailboxes_org_idx" ON "email_mailboxes" USING btree ("organization_id","created_at");