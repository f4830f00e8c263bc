import { healthApi } from "@cove/contract/health.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../../platform/routes.ts";

/** Liveness and readiness (the contract's healthApi). */
export async function healthRoutes(
  app: FastifyInstance,
  opts: { kind: "embedded" | "postgres"; migrationsBehind: () => Promise<number> },
) {
  addRoute(app, healthApi.health, {
    handler: async () => {
      await app.db.execute(sql`select 1`);
      return { status: "ok" as const, database: opts.kind };
    },
  });

  // The load balancer's check (docs/deploy.md): an instance that cannot serve yet, or is shutting down, gets no traffic.
  addRoute(app, healthApi.ready, {
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
