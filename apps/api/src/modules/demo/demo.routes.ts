import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { demoApi } from "@cove/contract/demo.ts";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../../platform/routes.ts";
import { findDemoOrganization } from "./demo.queries.ts";

/** What the public demo pages ask first: is there a demo on this server (docs/product.md, "The demo organization")? */
export async function demoRoutes(app: FastifyInstance) {
  addRoute(app, demoApi.status, {
    handler: async () => {
      const demo = await findDemoOrganization(app.db);
      return demo
        ? { available: true, organization: { name: demo.name, slug: demo.slug } }
        : { available: false, organization: null, message: DEMO_UNAVAILABLE };
    },
  });
}
