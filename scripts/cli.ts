import fs from "node:fs";
import { type Config, loadConfig } from "~/config/env.server";
import { StartupError } from "~/config/startup-error";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";

/** Same rule as server.js: a .env file beside package.json, unless ENV_FILE says otherwise. */
function loadEnvFile() {
  const file = process.env.ENV_FILE ?? ".env";
  if (file && fs.existsSync(file)) process.loadEnvFile(file);
}

/** Runs a command-line task with the same configuration as the server; operator errors print one line. */
export async function runCli(
  task: (ctx: { config: Config; database: Database }) => Promise<number | undefined>,
  options: { migrate?: boolean } = {},
) {
  let database: Database | undefined;
  try {
    loadEnvFile();
    const config = loadConfig();
    database = await openDatabase(config.database);
    if (options.migrate !== false) await migrateToLatest(database);
    process.exitCode = (await task({ config, database })) ?? 0;
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(error.message);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    await database?.close();
  }
}
