import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Files whose assertions are timings: run alone by `npm test` (scripts/test.mjs). */
const TIMED_ALONE = ["tests/fault/fair-opening.test.ts"];

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    environment: "node",
    setupFiles: ["tests/support/ci-guard.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // `vitest run` runs all three; `npm run test:unit` only the first, without a build or a
    // database; `npm test` (scripts/test.mjs) runs each as a stage of its own.
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Pure modules tested beside the code: no build, no database, no server.
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          // Files share a worker's loaded modules, as the integration suites do: they restore what
          // they spy on and keep no state between files (all 571 tests: 22.5 s isolated, 7.7 s shared).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // Each file in a worker reuses the modules the last one loaded instead of loading the
          // app again (40 s of imports in a run, 3 s shared): these suites keep their state in
          // the databases and servers each makes, and restore what they spy on. Measured alone,
          // 2 workers: 336 s isolated, 295 s shared.
          isolate: false,
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/e2e/**", "node_modules/**", ...TIMED_ALONE],
          // One migrated database per engine per run; every test database is a copy of it.
          globalSetup: ["tests/support/database-templates.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "timing",
          // Bounds a shopper notices (told within a second) measured from the client's side: `npm
          // test` runs them on their own before the other runners start, as a benchmark is run,
          // and not beside a browser suite that takes both cores (there the fair opening's first
          // looks after the draw took 1.05–1.16 s, the same code 0.25–0.41 s alone or beside busy loops).
          include: TIMED_ALONE,
        },
      },
    ],
  },
});
