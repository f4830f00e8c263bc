ALTER TABLE "data_versions" DROP CONSTRAINT "data_versions_pkey";--> statement-breakpoint
ALTER TABLE "data_versions" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_versions" ADD CONSTRAINT "data_versions_pkey" PRIMARY KEY("organization_id","shard");
