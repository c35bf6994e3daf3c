import { defineConfig } from "vitest/config";

// Three projects: `unit`, `cluster` (host processes on PostgreSQL under faults), and `slow` (suites over thousands of generated inputs, type-checked in one
// TypeScript program: a minute of CPU). `npm test` runs them all; `vitest run --project unit` skips the others.
const exclude = ["node_modules/**", "dist/**", "test/bench/**", "**/generated/**"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Hosts made in tests log nothing unless a test gives one a logger of its own.
    env: { WOW_LOG__LEVEL: "silent" },
    projects: [
      {
        extends: true,
        // Fails the run when a test wrote into the repository rather than a temporary directory.
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...exclude, "test/hostile/**", "test/cluster/**"], globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      // Real host processes sharing a PostgreSQL schema, under faults (kills, pauses, a database restart): minutes of wall time.
      {
        extends: true,
        test: { name: "cluster", include: ["test/cluster/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 120_000, fileParallelism: false, globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      { extends: true, test: { name: "slow", include: ["test/hostile/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 600_000 } },
    ],
  },
});
