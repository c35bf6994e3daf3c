import { defineConfig } from "vitest/config";

// Four projects: `unit`; `crash` (host processes SIGKILLed mid-delivery and restarted, on SQLite and
// on PostgreSQL: half a minute of real time); `cluster` (several host processes sharing a PostgreSQL
// schema, under kills, pauses and a database restart: minutes of real time); and `slow` (suites over
// thousands of generated inputs, type-checked in one TypeScript program: a minute of CPU). `npm test`
// runs all four; `vitest run --project unit` skips the others. Every project that may reach
// PostgreSQL asks once whether it answers (test/support/postgres-setup.ts).
const exclude = ["node_modules/**", "dist/**", "test/bench/**", "**/generated/**"];
const CRASH = "test/runtime/crash.test.ts";

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
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...exclude, "test/hostile/**", "test/cluster/**", CRASH], globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      {
        extends: true,
        test: { name: "cluster", include: ["test/cluster/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 120_000, fileParallelism: false, globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      { extends: true, test: { name: "crash", include: [CRASH], exclude, testTimeout: 180_000, globalSetup: ["test/support/postgres-setup.ts"] } },
      { extends: true, test: { name: "slow", include: ["test/hostile/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 600_000 } },
    ],
  },
});
