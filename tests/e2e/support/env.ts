/** Where the browser tests' shop keeps its data (a fresh SQLite file per run). */
export const E2E_DATA_DIR = ".tmp/e2e-data";
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
/**
 * The browser tests' shop hashes passwords the test bench's quick way (QUICK_PASSWORD_HASHES): the
 * admin specs sign in hundreds of times. The fixtures that create its administrators hash the same way.
 */
export const E2E_QUICK_PASSWORD_HASHES = "true";
