import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_DATA_DIR, E2E_PORT, E2E_QUICK_PASSWORD_HASHES } from "./tests/e2e/support/env";

const port = E2E_PORT;

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell) when installed, as
 * Playwright itself runs headless tests, else the whole browser in its headless mode. Same engine;
 * the whole browser spent about 40 % more CPU on the same specs (decision 49), and the browser
 * tests are half of what CI's two cores do. CHROMIUM_PATH picks another.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/** The flags keep the browser off the network, which this machine does not have. */
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The administration's specs (tests/e2e/admin-*.spec.ts). */
const ADMIN_SPECS = /\/admin-[\w-]+\.spec\.ts$/;

const phone = {
  ...devices["Pixel 7"],
  viewport: { width: 360, height: 740 },
  browserName: "chromium" as const,
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["json"]],
  // Generous for a slow CI machine running the server tests beside these on two cores: the
  // longest tests take about 22 s here, and a timeout is there to catch a hang, not to time pages.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace only when a test is run again (CI retries once): the first run records nothing.
    trace: "on-first-retry",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    // Every shopper's page on the narrowest phones still in use (360 px wide).
    { name: "phone", testIgnore: ADMIN_SPECS, use: phone },
    // The administration is the owner's desk, tested on a computer; on a phone only the screens
    // the owner really uses there: the tests tagged @phone (signing in, the orders desk,
    // shipping an order, the drops desk's lists and form fitting the screen).
    { name: "phone-admin", testMatch: ADMIN_SPECS, grep: /@phone\b/, use: phone },
    // On a computer, every page and flow except the tests tagged @once: what they check is the
    // shop's behaviour (a clock, a refusal, a cookie, a cached page's CSP), the same at any width,
    // and the phone run has it; the computer's layout of those pages is checked by the others.
    {
      name: "desktop",
      grepInvert: /@once\b/,
      use: { ...devices["Desktop Chrome"], browserName: "chromium" },
    },
  ],
  webServer: {
    // A fresh shop on the embedded defaults: empty data folder, so the demo catalogue loads.
    command: `rm -rf ${E2E_DATA_DIR} && node server.js`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      ENV_FILE: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      LOG_REQUESTS: "false",
      QUICK_PASSWORD_HASHES: E2E_QUICK_PASSWORD_HASHES,
      // Real proofs of work, checked and spent by the shop, at a tenth of a phone's cost: at the
      // shop's own, each 'Pagar' took seconds of a CI core, of random length, inside a step's 10 s.
      PROOF_OF_WORK_COST: "100",
      // The demo catalogue's images, drawn once per clone and copied by later first starts (the
      // server tests share the folder: tests/support/server-process.ts).
      DEMO_ART_CACHE: ".tmp/demo-art",
    },
  },
});
