// npm run db:migrate: applies pending migrations to the configured database (they also run at start-up).
import { migrateToLatest } from "~/db/database.server";
import { runCli } from "./cli";

await runCli(
  async ({ config, database }) => {
    const applied = await migrateToLatest(database);
    const target = config.database.kind === "sqlite" ? config.database.file : "PostgreSQL";
    console.log(
      applied.length > 0
        ? `Migraciones aplicadas: ${applied.join(", ")}`
        : `${target}: al día, nada que migrar.`,
    );
    return 0;
  },
  { migrate: false },
);
