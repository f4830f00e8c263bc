CREATE TABLE "data_versions" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
