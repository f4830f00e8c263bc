-- A visitor reads and gives its own answer to "How did we do?" once its chat has ended (0035); the column grants of
-- 0031 name every column a visitor may touch, and its restrictive policy keeps it to its own sessions.
GRANT SELECT ("rating", "rated_at") ON "chat_sessions" TO cove_contact;
--> statement-breakpoint
GRANT UPDATE ("rating", "rated_at") ON "chat_sessions" TO cove_contact;
