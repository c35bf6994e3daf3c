import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", "test/bench/**", "**/generated/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Fails the run when a test wrote into the repository rather than a temporary directory.
    globalSetup: ["test/support/tree-guard.ts"],
  },
});
