ALTER TABLE "attachments" ALTER COLUMN "ticket_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "chat_session_id" uuid;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "chat_message_id" uuid;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "article_id" uuid;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "contact_id" uuid;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_chat_session_id_chat_sessions_id_fk" FOREIGN KEY ("chat_session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_chat_message_id_chat_messages_id_fk" FOREIGN KEY ("chat_message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_article_id_kb_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."kb_articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attachments_org_chat_idx" ON "attachments" USING btree ("organization_id","chat_session_id");--> statement-breakpoint
CREATE INDEX "attachments_org_article_idx" ON "attachments" USING btree ("organization_id","article_id");