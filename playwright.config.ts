import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 4173);
export const e2eDataDir = ".tmp/e2e-data";

/** Debian's Chromium; the flags keep it off the network, which this machine does not have. */
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["json"]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    { name: "phone", use: { ...devices["Pixel 7"], browserName: "chromium" } },
    { name: "desktop", use: { ...devices["Desktop Chrome"], browserName: "chromium" } },
  ],
  webServer: {
    // A fresh shop on the embedded defaults: empty data folder, so the demo catalogue loads.
    command: `rm -rf ${e2eDataDir} && node server.js`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { ENV_FILE: "", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: e2eDataDir, LOG_REQUESTS: "false" },
  },
});
