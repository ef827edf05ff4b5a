import fs from "node:fs";
import path from "node:path";
import { createContext } from "react-router";
import type Stripe from "stripe";
import { type AdminAuth, createAdminAuth } from "~/auth/auth.server";
import { ensureDemoAdmin } from "~/auth/demo-admin.server";
import { authSettings } from "~/auth/settings.server";
import { productImageUrls } from "~/catalogue/views.server";
import type { Config } from "~/config/env.server";
import { StartupError } from "~/config/startup-error";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { seedDemoOnFirstStart } from "~/demo/seed.server";
import { createOutboxMailer, createSmtpMailer, type Mailer } from "~/mail/mailer.server";
import { createLocalStorage } from "~/media/local-storage.server";
import type { MediaStorage } from "~/media/storage.server";
import { startSweeper } from "~/orders/sweeper.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import type { PaymentProvider } from "~/payments/payments.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";

/** Everything a loader or action may use, created once per process. */
export interface Services {
  config: Config;
  database: Database;
  media: MediaStorage;
  payments: PaymentProvider;
  mailer: Mailer;
  auth: AdminAuth;
  /** Present when the shop takes payments with Stripe: the webhook needs the client and secret. */
  stripe: { client: Stripe; webhookSecret: string } | null;
  stop(): Promise<void>;
}

/** How route modules reach the services: `context.get(servicesContext)`. */
export const servicesContext = createContext<Services>();

/** Fails early, with the folder named, instead of on the first upload or write. */
export function ensureWritableDir(dir: string, what: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StartupError(
      `No se puede escribir en la carpeta ${what} ${dir} (${code}). Revisa la ruta y sus permisos.`,
    );
  }
}

export async function startServices(
  config: Config,
  log: (line: string) => void = console.log,
): Promise<Services> {
  ensureWritableDir(config.dataDir, "de datos (DATA_DIR)");
  ensureWritableDir(config.mediaDir, "de medios (MEDIA_DIR)");
  const database = await openDatabase(config.database, { poolMax: config.databasePoolMax });
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) log(`Migraciones aplicadas: ${applied.join(", ")}`);
    const media = createLocalStorage(config.mediaDir);
    if (config.demoData) {
      const onSeeding = () =>
        log("Base de datos vacía: cargando el catálogo de demostración (unos segundos)…");
      if (await seedDemoOnFirstStart(database.db, media, { onSeeding }))
        log("Catálogo de demostración listo.");
    }
    const auth = createAdminAuth(database, authSettings(config));
    if (config.demoData) await ensureDemoAdmin(auth, config.shop.email, log);
    let stripe: Services["stripe"] = null;
    let payments: PaymentProvider;
    if (config.stripe) {
      // loadConfig refuses Stripe without PUBLIC_URL: the payment page needs absolute image addresses.
      const origin = config.publicUrl;
      if (!origin) {
        throw new StartupError(
          "Configuración inválida:\n  PUBLIC_URL: hace falta con Stripe (p. ej. https://tienda.ejemplo.mx)",
        );
      }
      const client = createStripeClient(config.stripe);
      payments = createStripePayments(client, {
        images: (ids) => productImageUrls(database.db, media, origin, ids),
      });
      stripe = { client, webhookSecret: config.stripe.webhookSecret };
    } else {
      payments = createDemoPayments(database.db);
    }
    const mailer = config.mail.smtpUrl
      ? createSmtpMailer(config.mail.smtpUrl, config.mail.from)
      : createOutboxMailer(config.mail.outboxDir, config.mail.from, log);
    const stopSweeper = startSweeper({ db: database.db, payments, mailer, shop: config.shop }, log);
    // Sessions whose cookie never comes back are deleted here, not left in the table.
    const sessionSweep = setInterval(() => {
      auth.deleteEndedSessions().catch((error) => log(`Limpieza de sesiones: ${(error as Error).message}`));
    }, 15 * 60_000);
    sessionSweep.unref();
    return {
      config,
      database,
      media,
      payments,
      mailer,
      auth,
      stripe,
      async stop() {
        stopSweeper();
        clearInterval(sessionSweep);
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
