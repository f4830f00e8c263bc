CREATE TABLE "ai_question_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"article_id" uuid NOT NULL,
	"question" text NOT NULL,
	"source" text NOT NULL,
	"source_id" uuid NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ai_question_suggestions" ADD CONSTRAINT "ai_question_suggestions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_question_suggestions" ADD CONSTRAINT "ai_question_suggestions_article_id_kb_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."kb_articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_question_suggestions_once" ON "ai_question_suggestions" USING btree ("organization_id","article_id",lower("question"));--> statement-breakpoint
CREATE INDEX "ai_question_suggestions_pending_idx" ON "ai_question_suggestions" USING btree ("organization_id","state","created_at");