import type { FastifyInstance } from "fastify";

/**
 * Where this instance is in its life: serving, or draining (a SIGTERM came in). While draining it still answers every
 * request, but /api/ready answers 503 so the load balancer sends new work elsewhere (docs/deploy.md, main.ts).
 */
export interface Lifecycle {
  readonly draining: boolean;
  drain(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

export function registerLifecycle(app: FastifyInstance): Lifecycle {
  const lifecycle = createLifecycle();
  app.decorate("lifecycle", lifecycle);
  // Once draining, every answer asks its client (the load balancer, a browser) not to reuse the connection, so what it
  // sends next opens a connection that reaches another instance. Requests that still arrive are served, not refused.
  app.addHook("onRequest", async (_req, reply) => {
    if (lifecycle.draining) reply.header("connection", "close");
  });
  return lifecycle;
}
