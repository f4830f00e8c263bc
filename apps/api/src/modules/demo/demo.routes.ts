import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { demoAnswer } from "@cove/contract/demo.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { findDemoOrganization } from "./demo.queries.ts";

/** What the public demo pages ask first: is there a demo on this server (docs/product.md, "The demo organization")? */
export async function demoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/demo", {
    config: { access: "public" },
    schema: {
      tags: ["demo"],
      summary: "Whether this server has the demo organization (no: it was started with SEED_DEMO=false)",
      response: { 200: demoAnswer, 429: errorSchema },
    },
    handler: async () => {
      const demo = await findDemoOrganization(app.db);
      return demo
        ? { available: true, organization: { name: demo.name, slug: demo.slug } }
        : { available: false, organization: null, message: DEMO_UNAVAILABLE };
    },
  });
}
