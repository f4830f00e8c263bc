-- Row-level security for the portal's sign-in links and the satisfaction surveys (as every tenant table: see 0001),
-- and what the contact role (0016) needs for the customer portal. Every policy TO cove_contact is RESTRICTIVE: it is
-- ANDed with the organization's permissive policy, so a contact stays inside its organization and its own rows.
GRANT SELECT, INSERT, UPDATE, DELETE ON "portal_sign_in_links", "csat_surveys" TO cove_app;
--> statement-breakpoint
ALTER TABLE "portal_sign_in_links" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "portal_sign_in_links_tenant" ON "portal_sign_in_links"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "csat_surveys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "csat_surveys_tenant" ON "csat_surveys"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- A customer reads and answers the surveys of its own tickets; the link's token hash and the credited agent stay
-- unreadable to it.
GRANT SELECT ("id", "organization_id", "ticket_id", "contact_id", "solved_at", "expires_at", "rating", "comment",
              "answered_at") ON "csat_surveys" TO cove_contact;
--> statement-breakpoint
GRANT UPDATE ("rating", "comment", "answered_at", "updated_at") ON "csat_surveys" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "csat_surveys_contact_own" ON "csat_surveys" AS RESTRICTIVE TO cove_contact
  USING ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid
         AND "ticket_id" IN (SELECT "id" FROM "tickets"))
  WITH CHECK ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid
              AND "ticket_id" IN (SELECT "id" FROM "tickets"));
--> statement-breakpoint
-- A ticket the customer opens, or reopens by replying, gets its line in the activity: written with no member as the
-- actor, on the customer's own tickets, and only of those kinds. Nothing of the activity is readable to it.
GRANT INSERT ON "ticket_events" TO cove_contact;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "ticket_events_seq_seq" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "ticket_events_contact_own" ON "ticket_events" AS RESTRICTIVE FOR INSERT TO cove_contact
  WITH CHECK ("actor_id" IS NULL AND "type" IN ('created', 'status') AND "ticket_id" IN (SELECT "id" FROM "tickets"));
--> statement-breakpoint
-- The tickets service reads a ticket with its assignee's name (to record a change); a customer may read only the names
-- of the members assigned to its own tickets, and nothing else of the team.
GRANT SELECT ("id", "first_name", "last_name") ON "users" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "users_contact_assignees" ON "users" AS RESTRICTIVE FOR SELECT TO cove_contact
  USING ("id" IN (SELECT "assignee_id" FROM "tickets"));
--> statement-breakpoint
-- Tickets written before contacts existed get their requester as a contact (one per email and organization), so the
-- contacts list and the portal find them.
INSERT INTO "contacts" ("organization_id", "name", "email")
SELECT DISTINCT ON ("organization_id", lower("requester_email")) "organization_id", "requester_name", lower("requester_email")
FROM "tickets"
WHERE "contact_id" IS NULL AND "requester_email" <> ''
ORDER BY "organization_id", lower("requester_email"), "created_at" DESC
ON CONFLICT ("organization_id", "email") WHERE "email" IS NOT NULL DO NOTHING;
--> statement-breakpoint
UPDATE "tickets" t SET "contact_id" = c."id"
FROM "contacts" c
WHERE t."contact_id" IS NULL AND c."organization_id" = t."organization_id" AND c."email" = lower(t."requester_email");
