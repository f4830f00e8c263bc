-- A search index per organization inside one GIN index: every lexeme of a ticket prefixed with the first 8 characters
-- of its organization's id, so a search reads only that organization's postings (rather than every tenant's, then
-- throwing most of them away), and a prefix search ("warehou:*") expands only that organization's words. A prefix
-- shared by two organizations costs speed, never correctness: queries also filter on organization_id.
CREATE OR REPLACE FUNCTION ticket_org_words(org uuid, words tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_to_tsvector(array(SELECT left(org::text, 8) || ':' || lexeme FROM unnest(words))) $$;
--> statement-breakpoint
CREATE TABLE "ticket_tallies" (
	"organization_id" uuid NOT NULL,
	"status" text NOT NULL,
	"priority" text NOT NULL,
	"assignee_id" uuid,
	"n" integer DEFAULT 0 NOT NULL,
	"resolved_n" integer DEFAULT 0 NOT NULL,
	"resolved_seconds" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_tallies_key" UNIQUE NULLS NOT DISTINCT("organization_id","status","priority","assignee_id")
);
--> statement-breakpoint
DROP INDEX "tickets_search_idx";--> statement-breakpoint
DROP INDEX "tickets_org_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_org_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_org_priority_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_org_assignee_updated_idx";--> statement-breakpoint
ALTER TABLE "ticket_tallies" ADD CONSTRAINT "ticket_tallies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_org_status_solved_idx" ON "tickets" USING btree ("organization_id","status","solved_at");--> statement-breakpoint
CREATE INDEX "tickets_org_words_idx" ON "tickets" USING gin (ticket_org_words("organization_id", "search_vector"));--> statement-breakpoint
CREATE INDEX "tickets_org_updated_idx" ON "tickets" USING btree ("organization_id","updated_at" DESC NULLS FIRST,"ticket_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_org_status_updated_idx" ON "tickets" USING btree ("organization_id","status","updated_at" DESC NULLS FIRST,"ticket_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_org_priority_updated_idx" ON "tickets" USING btree ("organization_id","priority","updated_at" DESC NULLS FIRST,"ticket_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_org_assignee_updated_idx" ON "tickets" USING btree ("organization_id","assignee_id","updated_at" DESC NULLS FIRST,"ticket_number" DESC NULLS FIRST);