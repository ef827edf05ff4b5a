// npm test: builds the app, runs every test runner, and ends with one line that sums them:
// "N passed, N failed, N skipped". Exits non-zero if anything failed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const bin = (name) => `./node_modules/.bin/${name}`;
const reports = ".tmp/reports";
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

// The server tests and the browser tests run against the production build.
if (run(bin("react-router"), ["build"]) !== 0) {
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}

const vitestStatus = run(bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${reports}/vitest.json`,
]);
const vitest = readJson(`${reports}/vitest.json`);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A suite that failed to load has no failed tests but still failed.
  if (vitestStatus !== 0 && vitest.numFailedTests === 0)
    totals.failed += Math.max(1, vitest.numFailedTestSuites);
} else if (vitestStatus !== 0) {
  totals.failed += 1;
}
if (vitestStatus !== 0) exitCode = 1;

const playwrightStatus = run(bin("playwright"), ["test"], {
  PLAYWRIGHT_JSON_OUTPUT_FILE: `${reports}/playwright.json`,
});
const playwright = readJson(`${reports}/playwright.json`);
if (playwright?.stats) {
  totals.passed += playwright.stats.expected + playwright.stats.flaky;
  totals.failed += playwright.stats.unexpected;
  totals.skipped += playwright.stats.skipped;
  if (playwrightStatus !== 0 && playwright.stats.unexpected === 0) totals.failed += 1;
} else if (playwrightStatus !== 0) {
  totals.failed += 1;
}
if (playwrightStatus !== 0) exitCode = 1;

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
