ALTER TABLE "tickets" ADD COLUMN "first_response_business_minutes" double precision;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_business_minutes" double precision;