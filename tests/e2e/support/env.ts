/** Where the browser tests' shop keeps its data (a fresh SQLite file per run). */
export const E2E_DATA_DIR = ".tmp/e2e-data";
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
