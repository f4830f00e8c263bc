-- Row-level security for the outbox, notifications and contacts (as every tenant table: see 0001), and the contact
-- role: an organization's customer's transactions run as cove_contact, which may touch only a few tables and, through
-- RESTRICTIVE policies (ANDed with the organization's permissive ones), only the contact's own rows.
GRANT SELECT, INSERT ON "events" TO cove_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "events_id_seq" TO cove_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "notifications", "contacts", "contact_sessions" TO cove_app;
--> statement-breakpoint
ALTER TABLE "events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "events_tenant" ON "events"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "notifications" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "notifications_tenant" ON "notifications"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "contacts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "contacts_tenant" ON "contacts"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "contact_sessions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "contact_sessions_tenant" ON "contact_sessions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
DO $$
BEGIN
  CREATE ROLE cove_contact NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;
--> statement-breakpoint
GRANT cove_contact TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO cove_contact;
--> statement-breakpoint
-- The organization: its public face, and the ticket counter that numbers a ticket the contact opens.
GRANT SELECT ("id", "name", "slug", "timezone", "ticket_seq"), UPDATE ("ticket_seq") ON "organizations" TO cove_contact;
--> statement-breakpoint
GRANT SELECT, UPDATE ON "contacts" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "contacts_self" ON "contacts" AS RESTRICTIVE TO cove_contact
  USING ("id" = nullif(current_setting('app.contact_id', true), '')::uuid)
  WITH CHECK ("id" = nullif(current_setting('app.contact_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, DELETE ON "contact_sessions" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "contact_sessions_self" ON "contact_sessions" AS RESTRICTIVE TO cove_contact
  USING ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "tickets" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "tickets_contact_own" ON "tickets" AS RESTRICTIVE TO cove_contact
  USING ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid)
  WITH CHECK ("contact_id" = nullif(current_setting('app.contact_id', true), '')::uuid);
--> statement-breakpoint
-- Public replies only: an internal note never reaches a customer, not even as a row to count.
GRANT SELECT, INSERT ON "ticket_comments" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "ticket_comments_contact_public" ON "ticket_comments" AS RESTRICTIVE TO cove_contact
  USING ("is_public" AND "ticket_id" IN (SELECT "id" FROM "tickets"))
  WITH CHECK ("is_public" AND "ticket_id" IN (SELECT "id" FROM "tickets"));
--> statement-breakpoint
-- A contact emits events (a reply from the portal) and reads back only those it emitted.
GRANT SELECT, INSERT ON "events" TO cove_contact;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE "events_id_seq" TO cove_contact;
--> statement-breakpoint
CREATE POLICY "events_contact_own" ON "events" AS RESTRICTIVE TO cove_contact
  USING ("actor_kind" = 'contact' AND "actor_id" = current_setting('app.contact_id', true))
  WITH CHECK ("actor_kind" = 'contact' AND "actor_id" = current_setting('app.contact_id', true));
--> statement-breakpoint
-- The tallies follow ticket changes by trigger; they run as the owner, so a contact's ticket keeps them exact without
-- the contact reading the organization's counts.
ALTER FUNCTION ticket_tallies_track() SECURITY DEFINER SET search_path = pg_catalog, public;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION ticket_tallies_track() FROM PUBLIC;
