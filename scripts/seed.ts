// npm run seed: loads the demo catalogue into an empty shop.
// npm run seed -- --replace: deletes every drop (and its media) first.
import { countDrops } from "~/catalogue/catalogue.server";
import { progressLines, replaceWithDemoCatalogue } from "~/demo/seed.server";
import { openMediaStorage } from "~/media/open-storage.server";
import { ensureWritableDir } from "~/services.server";
import { runCli } from "./cli";

await runCli(async ({ config, database }) => {
  const existing = await countDrops(database.db);
  if (existing > 0 && !process.argv.includes("--replace")) {
    console.error(
      `Ya hay ${existing} colecciones. Usa \`npm run seed -- --replace\` para borrarlas y cargar el catálogo de demostración.`,
    );
    return 1;
  }
  if (config.media.kind === "local") ensureWritableDir(config.mediaDir, "de medios (MEDIA_DIR)");
  const ids = await replaceWithDemoCatalogue(database.db, await openMediaStorage(config), {
    onProgress: progressLines(console.log),
  });
  console.log(`Catálogo de demostración cargado: ${ids.length} colecciones.`);
  return 0;
});
