import { z } from "zod";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import "./messages.ts";
import { defineRoute } from "./routes.ts";

/**
 * GET /api/demo: whether this server has the demo organization the public demo pages use (/ai-test, and later the
 * customer portal's and the widget's demo pages), so they can say plainly when it does not (docs/product.md, "The demo organization").
 */
export const demoAnswer = z.object({
  available: z.boolean(),
  organization: z.object({ name: z.string(), slug: z.string() }).nullable(),
  /** When there is no demo: the sentence the pages show. */
  message: z.string().optional(),
});
export type DemoAnswer = z.infer<typeof demoAnswer>;

/** What the public demo pages ask first: is there a demo on this server? */
export const demoApi = {
  status: defineRoute({
    method: "GET",
    path: "/api/demo",
    summary: "Whether this server has the demo organization (no: it was started with SEED_DEMO=false)",
    tags: ["demo"],
    access: "public",
    answers: { 200: demoAnswer },
  }),
};
