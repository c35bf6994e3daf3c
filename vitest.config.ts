import { defineConfig } from "vitest/config";

// Five projects: `unit`; `crash` (host processes SIGKILLed mid-delivery and restarted, on SQLite and
// on PostgreSQL: half a minute of real time); `cluster` (several host processes sharing a PostgreSQL
// schema, under kills, pauses and a database restart: minutes of real time); `slow` (suites over
// thousands of generated inputs, type-checked in one TypeScript program: a minute of CPU); `browser`
// (the operator console in headless Chromium). `npm test` runs all five; `vitest run --project unit`
// only the fast one. Every project that may reach PostgreSQL asks once whether it answers
// (test/support/postgres-setup.ts).
const exclude = ["node_modules/**", "dist/**", "test/bench/**", "**/generated/**"];
const CRASH = "test/runtime/crash.test.ts";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker less than the cores: one on a 2-core machine, where most files
    // wait on PostgreSQL, child processes or a browser rather than compute. Three keep both cores busy.
    maxWorkers: 3,
    // Hosts made in tests log nothing unless a test gives one a logger of its own.
    env: { WOW_LOG__LEVEL: "silent" },
    projects: [
      {
        extends: true,
        // Fails the run when a test wrote into the repository rather than a temporary directory.
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...exclude, "test/hostile/**", "test/browser/**", "test/cluster/**", CRASH], globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      {
        extends: true,
        // After every other project (groupOrder 1): its database restart would cut the connections of
        // PostgreSQL suites running beside it.
        test: { name: "cluster", include: ["test/cluster/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 120_000, fileParallelism: false, sequence: { groupOrder: 1 }, globalSetup: ["test/support/tree-guard.ts", "test/support/postgres-setup.ts"] },
      },
      { extends: true, test: { name: "crash", include: [CRASH], exclude, testTimeout: 180_000, globalSetup: ["test/support/postgres-setup.ts"] } },
      { extends: true, test: { name: "browser", include: ["test/browser/**/*.test.ts"], exclude, testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ["test/support/tree-guard.ts"] } },
      // The hostile-name suite type-checks every accepted input's SDK in one program: past Node's default
      // 4 GB heap, its worker died of SIGABRT ("Worker exited unexpectedly") and took the run down.
      { extends: true, test: { name: "slow", include: ["test/hostile/**/*.test.ts"], exclude, testTimeout: 600_000, hookTimeout: 600_000, execArgv: ["--max-old-space-size=12288"] } },
    ],
  },
});
