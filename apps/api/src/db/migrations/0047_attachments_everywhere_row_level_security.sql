-- What the contact role (0016) needs for files, in the portal and in live chat. RESTRICTIVE, so ANDed with the
-- organization's policy (0029). A customer reads:
--  * the files of their own tickets' public conversation: the first message's, and those of replies the contact role
--    can see (public ones only, 0016). A file of an internal note is not a row they can see, count or name;
--  * their own uploads still waiting for a ticket or a reply;
--  * the files of their own chats (the contact role sees only its own sessions, 0031).
-- Articles' files are never theirs to read here: the help center serves a published article's files itself.
GRANT SELECT, INSERT ON "attachments" TO cove_contact;
--> statement-breakpoint
GRANT UPDATE ("ticket_id", "comment_id", "state") ON "attachments" TO cove_contact;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "attachments_seq_seq" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "attachments_contact_own" ON "attachments" AS RESTRICTIVE TO cove_contact
  USING (
    ("state" = 'attached' AND "ticket_id" IN (SELECT "id" FROM "tickets")
     AND ("comment_id" IS NULL OR "comment_id" IN (SELECT "id" FROM "ticket_comments")))
    OR ("state" = 'pending' AND "contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid)
    OR "chat_session_id" IN (SELECT "id" FROM "chat_sessions")
  )
  WITH CHECK (
    "contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid
    AND "article_id" IS NULL
    AND ("ticket_id" IS NULL OR "ticket_id" IN (SELECT "id" FROM "tickets"))
    AND ("comment_id" IS NULL OR "comment_id" IN (SELECT "id" FROM "ticket_comments"))
    AND ("chat_session_id" IS NULL OR "chat_session_id" IN (SELECT "id" FROM "chat_sessions" WHERE "status" = 'active'))
    AND ("chat_message_id" IS NULL OR "chat_message_id" IN (SELECT "id" FROM "chat_messages"))
  );
