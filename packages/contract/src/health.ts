import { z } from "zod";
import { defineRoute } from "./routes.ts";

export const healthAnswer = z.object({
  status: z.literal("ok"),
  database: z.enum(["embedded", "postgres"]),
});
export type HealthAnswer = z.infer<typeof healthAnswer>;

/**
 * /api/ready: whether this instance should get traffic. ready (200): the database answers, its migrations are the ones
 * this build carries, and the instance is not shutting down; otherwise not_ready (503) with the reason.
 */
export const readyAnswer = z.object({
  status: z.enum(["ready", "not_ready"]),
  reason: z.string().optional(),
});
export type ReadyAnswer = z.infer<typeof readyAnswer>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["health"];

/** Liveness and readiness, for whoever runs the instances (docs/deploy.md). */
export const healthApi = {
  health: defineRoute({
    method: "GET",
    path: "/api/health",
    summary: "Liveness and database check",
    tags,
    access: "public",
    answers: { 200: healthAnswer },
  }),
  ready: defineRoute({
    method: "GET",
    path: "/api/ready",
    summary: "Readiness: whether this instance should receive traffic",
    description:
      "200 when the database answers, every migration this version carries is applied and the instance is not shutting down; otherwise 503 with the reason. /api/health is the liveness check.",
    tags,
    access: "public",
    answers: { 200: readyAnswer },
    unavailable: readyAnswer,
  }),
};
