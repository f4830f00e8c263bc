CREATE TABLE "attachment_parts" (
	"upload_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"organization_id" uuid NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attachment_parts_upload_id_seq_pk" PRIMARY KEY("upload_id","seq")
);
--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "upload_id" uuid;--> statement-breakpoint
ALTER TABLE "attachment_parts" ADD CONSTRAINT "attachment_parts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attachment_parts_created_idx" ON "attachment_parts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "attachments_upload_idx" ON "attachments" USING btree ("upload_id");