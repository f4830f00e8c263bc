ALTER TABLE "ai_answers" ADD COLUMN "not_covered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD COLUMN "learn_automatically" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD COLUMN "false_handoff_target" real DEFAULT 0.1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD COLUMN "threshold_automatic" boolean DEFAULT false NOT NULL;