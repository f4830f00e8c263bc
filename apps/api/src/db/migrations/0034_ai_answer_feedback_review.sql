ALTER TABLE "ai_answers" ADD COLUMN "feedback" text;--> statement-breakpoint
ALTER TABLE "ai_answers" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ai_answers" ADD COLUMN "reviewed_article_id" uuid;--> statement-breakpoint
ALTER TABLE "ai_answers" ADD CONSTRAINT "ai_answers_reviewed_article_id_kb_articles_id_fk" FOREIGN KEY ("reviewed_article_id") REFERENCES "public"."kb_articles"("id") ON DELETE set null ON UPDATE no action;