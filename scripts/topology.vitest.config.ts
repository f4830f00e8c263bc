import { defineConfig } from "vitest/config";

// npm run test:topology: Cove as deploy/ describes it (PostgreSQL, PgBouncer, 3 instances, HAProxy, Prometheus), after
// npm run build. Not part of npm test: it needs Debian's haproxy, pgbouncer, prometheus and a PostgreSQL server.
export default defineConfig({
  test: {
    name: "topology",
    root: "scripts",
    include: ["topology.e2e.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
