CREATE TABLE "ai_sentence_vectors" (
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"vector" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_sentence_vectors_organization_id_key_pk" PRIMARY KEY("organization_id","key")
);
--> statement-breakpoint
ALTER TABLE "ai_sentence_vectors" ADD CONSTRAINT "ai_sentence_vectors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;