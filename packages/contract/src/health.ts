import { z } from "zod";

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
