-- A chat visitor (cove_contact, 0016 and 0031) sees the assistant's answers in its own chats as the widget shows them
-- (the logged answer's id and the rendered HTML), and may rate those answers and no other: RESTRICTIVE, so ANDed with
-- the organization's policy (0005). It reads and writes only the rating of an answer, never the question log's figures.
GRANT SELECT ("ai_answer_id", "html") ON "chat_messages" TO cove_contact;
--> statement-breakpoint
-- Its own messages stay plain: no answer id and no HTML (this replaces 0031's policy with those two added).
DROP POLICY "chat_messages_contact_own" ON "chat_messages";
--> statement-breakpoint
CREATE POLICY "chat_messages_contact_own" ON "chat_messages" AS RESTRICTIVE TO cove_contact
  USING ("session_id" IN (SELECT "id" FROM "chat_sessions"))
  WITH CHECK ("sender_type" = 'visitor' AND "user_id" IS NULL AND "sender_name" IS NULL AND "sources" = '[]'::jsonb
              AND "ai_answer_id" IS NULL AND "html" IS NULL
              AND "session_id" IN (SELECT "id" FROM "chat_sessions" WHERE "status" = 'active'));
--> statement-breakpoint
GRANT SELECT ("id", "organization_id", "feedback"), UPDATE ("feedback") ON "ai_answers" TO cove_contact;
--> statement-breakpoint
-- The answers given in its own chats: chat_messages is itself confined to the contact's sessions (0031).
CREATE POLICY "ai_answers_contact_own" ON "ai_answers" AS RESTRICTIVE TO cove_contact
  USING ("id" IN (SELECT "ai_answer_id" FROM "chat_messages" WHERE "sender_type" = 'ai'))
  WITH CHECK ("id" IN (SELECT "ai_answer_id" FROM "chat_messages" WHERE "sender_type" = 'ai'));
