ALTER TABLE "chat_messages" ADD COLUMN "ai_answer_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_ai_answer_id_ai_answers_id_fk" FOREIGN KEY ("ai_answer_id") REFERENCES "public"."ai_answers"("id") ON DELETE set null ON UPDATE no action;