import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // The repository's own scripts (scripts/*.test.ts): the boundary checker's rules, each on a planted violation.
        test: { name: "scripts", root: "scripts", include: ["*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "api",
          root: "apps/api",
          include: ["test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/no-overlapping-queries.ts"],
          // A question waits for its knowledge base's sentence vectors, so an answer never depends on timing.
          env: { AI_ENCODER_WAIT_MS: "120000" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Needs PostgreSQL (TEST_DATABASE_URL): several app processes on one database. CI runs it with the API suite.
        test: {
          name: "api-pg",
          root: "apps/api",
          include: ["test-pg/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/no-overlapping-queries.ts"],
          // A question waits for its knowledge base's sentence vectors, so an answer never depends on timing.
          env: { AI_ENCODER_WAIT_MS: "120000" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Needs Dovecot (dovecot-imapd): the mailbox import against a real IMAP server. CI installs it and runs this.
        test: {
          name: "api-imap",
          root: "apps/api",
          include: ["test-imap/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/no-overlapping-queries.ts"],
          // A question waits for its knowledge base's sentence vectors, so an answer never depends on timing.
          env: { AI_ENCODER_WAIT_MS: "120000" },
          // Thousands of messages through the whole filing path, on a 2-core machine shared with other work.
          testTimeout: 900_000,
          // One file at a time: each imports thousands of messages and would slow the other down.
          fileParallelism: false,
          hookTimeout: 120_000,
        },
      },
      {
        // The web app's own Vite config (React plugin), so tests compile exactly as the build does.
        extends: "./apps/web/vite.config.ts",
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/test/setup.ts"],
          // Tests replace fetch (the HTTP boundary) with vi.stubGlobal; put the real one back after each test.
          unstubGlobals: true,
          // Whole-app renders load route chunks on first use; leave room on a busy 2-core CI machine.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
