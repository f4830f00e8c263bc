ALTER TABLE "chat_sessions" ADD COLUMN "rating" text;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "rated_at" timestamp with time zone;