import { healthAnswer, readyAnswer } from "@cove/contract/health.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

export async function healthRoutes(
  fastify: FastifyInstance,
  opts: { kind: "embedded" | "postgres"; migrationsBehind: () => Promise<number> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/health", {
    config: { access: "public" },
    schema: { tags: ["health"], summary: "Liveness and database check", response: { 200: healthAnswer } },
    handler: async () => {
      await app.db.execute(sql`select 1`);
      return { status: "ok" as const, database: opts.kind };
    },
  });

  // The load balancer's check (docs/deploy.md): an instance that cannot serve yet, or is shutting down, gets no traffic.
  app.get("/api/ready", {
    config: { access: "public" },
    schema: {
      tags: ["health"],
      summary: "Readiness: whether this instance should receive traffic",
      description:
        "200 when the database answers, every migration this version carries is applied and the instance is not shutting down; otherwise 503 with the reason. /api/health is the liveness check.",
      response: { 200: readyAnswer, 503: readyAnswer },
    },
    handler: async (_req, reply) => {
      const notReady = (reason: string) => reply.code(503).send({ status: "not_ready" as const, reason });
      if (app.lifecycle.draining) return notReady("The instance is shutting down.");
      let behind: number;
      try {
        behind = await opts.migrationsBehind();
      } catch {
        return notReady("The database does not answer.");
      }
      if (behind > 0) {
        return notReady(`The database lacks ${behind} migration${behind === 1 ? "" : "s"} of this version.`);
      }
      return { status: "ready" as const };
    },
  });
}
