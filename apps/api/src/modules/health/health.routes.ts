import { healthAnswer } from "@cove/contract/health.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

export async function healthRoutes(fastify: FastifyInstance, opts: { kind: "embedded" | "postgres" }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/health", {
    config: { access: "public" },
    schema: { tags: ["health"], summary: "Liveness and database check", response: { 200: healthAnswer } },
    handler: async () => {
      await app.db.execute(sql`select 1`);
      return { status: "ok" as const, database: opts.kind };
    },
  });
}
