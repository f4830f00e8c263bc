import { z } from "zod";

export const healthAnswer = z.object({
  status: z.literal("ok"),
  database: z.enum(["embedded", "postgres"]),
});
export type HealthAnswer = z.infer<typeof healthAnswer>;
