import fs from "node:fs";
import path from "node:path";
import { createContext } from "react-router";
import { type AdminAuth, createAdminAuth } from "~/auth/auth.server";
import { ensureDemoAdmin } from "~/auth/demo-admin.server";
import { authSettings } from "~/auth/settings.server";
import { campaignEmailTemplates } from "~/campaigns/opening-email.server";
import { productImageUrls } from "~/catalogue/views.server";
import type { Config } from "~/config/env.server";
import { StartupError } from "~/config/startup-error";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { progressLines, seedDemoOnFirstStart } from "~/demo/seed.server";
import { startJobs } from "~/jobs/scheduler.server";
import { createRequestLimits, noRequestLimits, type RequestLimits } from "~/limits/limits.server";
import { createProofOfWork, type ProofOfWork } from "~/limits/proof-of-work.server";
import { createOutboxMailer, createSmtpMailer, type Mailer } from "~/mail/mailer.server";
import { createMailQueue, type MailQueue } from "~/mail/queue.server";
import { openMediaStorage } from "~/media/open-storage.server";
import type { MediaStorage } from "~/media/storage.server";
import { sweepUnusedMedia } from "~/media/sweep.server";
import { type CancelLinks, createCancelLinks } from "~/orders/cancel-link.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { createSuccessLinks, type SuccessLinks } from "~/orders/success-link.server";
import { sweepExpiredHolds } from "~/orders/sweeper.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { type ShopSettingsService, startShopSettings } from "~/settings/settings.server";
import { WAITLIST_OPENING_EMAIL } from "~/waitlist/kinds";
import { createWaitlistLinks, type WaitlistLinks } from "~/waitlist/links.server";
import { waitlistEmailTemplates } from "~/waitlist/templates.server";
import { queueOpeningNotices } from "~/waitlist/waitlist.server";

/** Everything a loader or action may use, created once per process. */
export interface Services {
  config: Config;
  database: Database;
  media: MediaStorage;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Queued e-mails: `mail.sendSoon()` after queueing one. */
  mail: MailQueue;
  auth: AdminAuth;
  /** Configuración: the shop's details, carriers, legal texts in force (`settings.current()`). */
  settings: ShopSettingsService;
  /** How often a browser and an address may start a checkout, leave the payment page, sign in, sign up for 'Avísame'. */
  limits: RequestLimits;
  /** The proof of work a checkout needs; null when CHECKOUT_CHALLENGE is off. */
  proofOfWork: ProofOfWork | null;
  /** Signs and checks the /cancel links of payment pages (one browser's own checkout only). */
  cancelLinks: CancelLinks;
  /** Signs and checks the confirm and unsubscribe links of 'Avísame' e-mails. */
  waitlistLinks: WaitlistLinks;
  /** Signs and checks the /success links: the order's details for the browser that paid only. */
  successLinks: SuccessLinks;
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
  if (config.media.kind === "local") ensureWritableDir(config.mediaDir, "de medios (MEDIA_DIR)");
  const database = await openDatabase(config.database, { poolMax: config.databasePoolMax, warm: true });
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) log(`Migraciones aplicadas: ${applied.join(", ")}`);
    const media = openMediaStorage(config);
    if (config.demoData) {
      const onSeeding = () =>
        log("Base de datos vacía: cargando el catálogo de demostración (unos segundos)…");
      const onProgress = progressLines(log);
      const artCache = config.demoArtCache;
      if (await seedDemoOnFirstStart(database.db, media, { onSeeding, onProgress, artCache }))
        log("Catálogo de demostración listo.");
    }
    const shopSettings = await startShopSettings(database.db, config.shop, { log });
    const settings = authSettings(config);
    const auth = createAdminAuth(database, settings);
    if (config.demoData) await ensureDemoAdmin(auth, config.shop.email, log);
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
        webhookSecret: config.stripe.webhookSecret,
        images: (ids) => productImageUrls(database.db, media, origin, ids),
      });
    } else {
      payments = createDemoPayments(database.db);
    }
    const mailer = config.mail.smtpUrl
      ? createSmtpMailer(config.mail.smtpUrl, config.mail.from)
      : createOutboxMailer(config.mail.outboxDir, config.mail.from, log);
    const waitlistLinks = createWaitlistLinks(settings.secret);
    const mail = createMailQueue(
      database.db,
      mailer,
      {
        ...orderEmailTemplates(database.db, () => shopSettings.current()),
        ...waitlistEmailTemplates(
          database.db,
          () => shopSettings.current().shop,
          waitlistLinks,
          config.publicUrl,
        ),
        ...campaignEmailTemplates(database.db, () => shopSettings.current().shop, config.publicUrl),
      },
      log,
      { bulkKinds: [WAITLIST_OPENING_EMAIL] },
    );
    const stopJobs = startJobs(
      [
        {
          name: "Apartados vencidos",
          everyMs: 60_000,
          runAtStart: true,
          async run() {
            const { released, paid, failed } = await sweepExpiredHolds(database.db, payments);
            if (released + paid + failed === 0) return null;
            // Failures were logged one by one; the count says how many wait for the next round.
            const pending = failed > 0 ? `, ${failed} sin resolver (se reintentan)` : "";
            return `Apartados vencidos: ${released} liberados, ${paid} pagados${pending}.`;
          },
        },
        {
          // Whatever `sendSoon` could not send (a failed SMTP attempt, a crash) goes out here.
          name: "Correos",
          everyMs: 60_000,
          runAtStart: true,
          async run() {
            const { sent, failed } = await mail.deliver();
            return failed > 0 ? `Correos: ${sent} enviados, ${failed} fallaron (se reintentará).` : null;
          },
        },
        {
          // 'Avísame': a drop that opened tells its confirmed addresses, once each (decision 16).
          name: "Avisos de apertura",
          everyMs: 60_000,
          runAtStart: true,
          async run() {
            const { queued } = await queueOpeningNotices(database.db);
            if (queued === 0) return null;
            mail.sendSoon();
            return `Avísame: ${queued} avisos de apertura en cola.`;
          },
        },
        {
          // Photos uploaded on forms that were never saved, and files left by cut-off uploads.
          name: "Limpieza de medios",
          everyMs: 60 * 60_000,
          async run() {
            const { rows, files } = await sweepUnusedMedia(database.db, media);
            return rows + files > 0
              ? `Medios sin usar borrados: ${rows} registros, ${files} archivos.`
              : null;
          },
        },
        {
          // Sessions whose cookie never comes back are deleted here, not left in the table.
          name: "Limpieza de sesiones",
          everyMs: 15 * 60_000,
          async run() {
            await auth.deleteEndedSessions();
            return null;
          },
        },
      ],
      log,
    );
    const limits = config.requestLimits ? createRequestLimits(config.database) : noRequestLimits;
    return {
      config,
      database,
      media,
      payments,
      mailer,
      mail,
      auth,
      settings: shopSettings,
      limits,
      cancelLinks: createCancelLinks(settings.secret),
      waitlistLinks,
      successLinks: createSuccessLinks(settings.secret),
      proofOfWork: config.checkoutChallenge
        ? createProofOfWork(settings.secret, (key, seconds) => limits.once(key, seconds))
        : null,
      async stop() {
        // Rounds under way finish first: a message sent must be recorded as sent.
        shopSettings.stop();
        await stopJobs();
        await mail.drain();
        await limits.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
