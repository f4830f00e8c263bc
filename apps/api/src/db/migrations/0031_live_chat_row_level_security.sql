-- Row-level security for live chat (as every tenant table: see 0001), and what a chat visitor may do. A visitor is a
-- contact (0016) whose transactions run as cove_contact; every policy TO cove_contact is RESTRICTIVE, ANDed with the
-- organization's permissive one, so a visitor stays inside its organization and its own sessions.
GRANT SELECT, INSERT, UPDATE, DELETE ON "chat_sessions", "chat_messages" TO cove_app;
--> statement-breakpoint
ALTER TABLE "chat_sessions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "chat_sessions_tenant" ON "chat_sessions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "chat_messages" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "chat_messages_tenant" ON "chat_messages"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- A visitor reads its own sessions, without the team's figures (assignee, hand-off times, the AI's share), and moves
-- the last message along when it writes.
GRANT SELECT ("id", "organization_id", "contact_id", "visitor_name", "status", "waiting_for_human", "first_human_reply_at",
              "started_at", "ended_at", "last_message", "last_message_at") ON "chat_sessions" TO cove_contact;
--> statement-breakpoint
GRANT UPDATE ("last_message", "last_message_at") ON "chat_sessions" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "chat_sessions_contact_own" ON "chat_sessions" AS RESTRICTIVE TO cove_contact
  USING ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid)
  WITH CHECK ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid);
--> statement-breakpoint
-- It reads the messages of its own sessions and writes only plain visitor messages (no member, name or sources), only
-- into its own active sessions. (INSERT is granted on the table: an ORM names every column, with DEFAULT.)
GRANT SELECT ("id", "organization_id", "session_id", "sender_type", "sender_name", "message", "sources", "created_at"),
      INSERT ON "chat_messages" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "chat_messages_contact_own" ON "chat_messages" AS RESTRICTIVE TO cove_contact
  USING ("session_id" IN (SELECT "id" FROM "chat_sessions"))
  WITH CHECK ("sender_type" = 'visitor' AND "user_id" IS NULL AND "sender_name" IS NULL AND "sources" = '[]'::jsonb
              AND "session_id" IN (SELECT "id" FROM "chat_sessions" WHERE "status" = 'active'));
