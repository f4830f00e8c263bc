import { errorSchema } from "@cove/contract/errors.ts";
import { userListAnswer } from "@cove/contract/users.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inTenant } from "../../platform/auth.ts";
import * as service from "./users.service.ts";

export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/users", {
    config: { access: "authenticated" },
    schema: { tags: ["users"], summary: "The team", response: { 200: userListAnswer, 401: errorSchema } },
    handler: async (req) => ({ users: await inTenant(app, req, service.listUsers) }),
  });
}
