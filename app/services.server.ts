import fs from "node:fs";
import path from "node:path";
import { createAdminAuth } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { ensureDemoAdmin } from "~/auth/demo-admin.server";
import { campaignEmailTemplates } from "~/campaigns/opening-email.server";
import { productImageUrls } from "~/catalogue/views.server";
import type { Config } from "~/config/env.server";
import { log as shopLog } from "~/config/log.server";
import { StartupError } from "~/config/startup-error";
import { migrateToLatest, openDatabase } from "~/db/database.server";
import { progressLines, seedDemoOnFirstStart } from "~/demo/seed.server";
import type { InvoicingProvider } from "~/invoices/invoicing-port";
import { createLocalInvoicing } from "~/invoices/local-invoicing.server";
import { invoiceEmailTemplates } from "~/invoices/templates.server";
import { startJobs } from "~/jobs/scheduler.server";
import { shopJobs } from "~/jobs/shop-jobs.server";
import { BULK_KINDS } from "~/mail/daily-budget.server";
import { createMailQueue } from "~/mail/delivery.server";
import { createOutboxMailer, createSmtpMailer } from "~/mail/mailer.server";
import { openMediaStorage } from "~/media/open-storage.server";
import { createCancelLinks } from "~/orders/cancel-link.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { writePendingLooks } from "~/orders/line.server";
import { createOrderPageLinks, orderPageUrlOf } from "~/orders/order-page-link.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { createSuccessLinks } from "~/orders/success-link.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { createBrowserCookies } from "~/rate-limits/browser-cookie.server";
import { createProofOfWork } from "~/rate-limits/proof-of-work.server";
import { createRequestLimits, noRequestLimits } from "~/rate-limits/request-limits.server";
import { returnEmailTemplates } from "~/returns/templates.server";
import { startShopSettings } from "~/settings/settings.server";
import { storyMediaIds } from "~/settings/storefront.server";
import { createWaitlistLinks } from "~/waitlist/links.server";
import { restockEmailTemplates } from "~/waitlist/restock-templates.server";
import { waitlistEmailTemplates } from "~/waitlist/templates.server";
import type { Services } from "~/web/services";

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

/** The facturas' adapter the configuration names: one so far (decision 45: how a stamping provider joins). */
function openInvoicing(config: Config["invoicing"]): InvoicingProvider {
  switch (config.provider) {
    case "local":
      return createLocalInvoicing();
  }
}

/**
 * What the services are for. A "server" answers requests and runs the shop's jobs; it migrates the
 * database and seeds the demo on a first start. A "page renderer" (server/render-worker.ts, a
 * thread beside a server that already did those) only reads, to render public pages: no
 * migrations, no seeding, no jobs, no limits, and a small pool.
 */
export type ServicesRole = "server" | "page renderer";

/** Connections a page renderer's PostgreSQL pool keeps: it renders a few pages a second at most. */
const RENDERER_POOL_MAX = 2;

export async function startServices(
  config: Config,
  log: (line: string) => void = (line) => shopLog.info(line),
  role: ServicesRole = "server",
): Promise<Services> {
  const server = role === "server";
  if (server) {
    ensureWritableDir(config.dataDir, "de datos (DATA_DIR)");
    if (config.media.kind === "local") ensureWritableDir(config.mediaDir, "de medios (MEDIA_DIR)");
  }
  const database = await openDatabase(config.database, {
    poolMax: server ? config.databasePoolMax : RENDERER_POOL_MAX,
    warm: server,
  });
  try {
    const applied = server ? await migrateToLatest(database) : [];
    if (applied.length > 0) log(`Migraciones aplicadas: ${applied.join(", ")}`);
    if (server && config.admin.quickPasswordHashes) {
      log(
        "QUICK_PASSWORD_HASHES: las contraseñas de administración se cifran con el costo de un banco de pruebas; nunca en una tienda real.",
      );
    }
    const media = await openMediaStorage(config);
    if (server && config.demoData) {
      const onSeeding = () =>
        log("Base de datos vacía: cargando el catálogo de demostración (unos segundos)…");
      const onProgress = progressLines(log);
      const artCache = config.demoArtCache;
      if (await seedDemoOnFirstStart(database.db, media, { onSeeding, onProgress, artCache }))
        log("Catálogo de demostración listo.");
    }
    // A page renderer reads new settings only when its server tells it (server/page-renderer.ts):
    // polling on its own, it could render them before its server has their new CSP.
    const shopSettings = await startShopSettings(database.db, config.shop, {
      log,
      pollMs: server ? undefined : 0,
    });
    const settings = authSettings(config);
    const limits = server && config.requestLimits ? createRequestLimits(config.database) : noRequestLimits;
    const proofOfWork = config.checkoutChallenge
      ? createProofOfWork(settings.secret, (key, seconds) => limits.once(key, seconds), {
          difficulty: config.proofOfWork,
        })
      : null;
    // The owner's door asks an unknown device for the same proofs past its limits (decision 32).
    const auth = createAdminAuth(database, settings, {
      proofs: proofOfWork && {
        spend: async (proof, browserId) => (await proofOfWork.verify(proof, browserId)).ok,
      },
    });
    if (server && config.demoData) await ensureDemoAdmin(auth, config.shop.email, log);
    let payments: PaymentProvider;
    if (config.stripe) {
      // loadConfig refuses Stripe without PUBLIC_URL: the payment page needs absolute image addresses.
      const origin = config.publicUrl;
      if (!origin) {
        throw new StartupError(
          "Configuración inválida:\n  PUBLIC_URL: hace falta con Stripe (p. ej. https://tienda.ejemplo.mx)",
        );
      }
      // Loaded only when configured: Stripe's SDK is a quarter of the files a start would read,
      // and a demo shop (every test server) never needs it.
      const { createStripeClient, createStripePayments } = await import("~/payments/stripe-payments.server");
      const client = createStripeClient(config.stripe);
      payments = createStripePayments(client, {
        webhookSecret: config.stripe.webhookSecret,
        images: (ids) => productImageUrls(database.db, media, origin, ids),
      });
    } else {
      payments = createDemoPayments(database.db);
    }
    const invoicing = openInvoicing(config.invoicing);
    const replyTo = () => shopSettings.current().shop.email;
    const mailer = config.mail.smtpUrl
      ? createSmtpMailer(config.mail.smtpUrl, config.mail.from, replyTo)
      : createOutboxMailer(config.mail.outboxDir, config.mail.from, log, replyTo);
    const waitlistLinks = createWaitlistLinks(settings.secret);
    const orderPageLinks = createOrderPageLinks(settings.secret);
    const mail = createMailQueue(
      database.db,
      mailer,
      {
        ...orderEmailTemplates(
          database.db,
          () => shopSettings.current(),
          { links: orderPageLinks, publicUrl: config.publicUrl },
          media,
        ),
        ...waitlistEmailTemplates(
          database.db,
          () => shopSettings.current().shop,
          waitlistLinks,
          config.publicUrl,
          media,
        ),
        ...restockEmailTemplates(
          database.db,
          () => shopSettings.current().shop,
          waitlistLinks,
          config.publicUrl,
          media,
        ),
        ...campaignEmailTemplates(database.db, () => shopSettings.current().shop, config.publicUrl, media),
        ...returnEmailTemplates(
          database.db,
          () => shopSettings.current().shop,
          (orderId) =>
            orderPageUrlOf(database.db, { links: orderPageLinks, publicUrl: config.publicUrl }, orderId),
          media,
        ),
        ...invoiceEmailTemplates(database.db, () => shopSettings.current(), {
          links: orderPageLinks,
          publicUrl: config.publicUrl,
        }),
      },
      log,
      { bulkKinds: BULK_KINDS, dailyLimit: config.mail.dailyLimit },
    );
    const keptMedia = async () => {
      // The stored row, not this server's copy: another server may have just saved a new photo.
      await shopSettings.refresh();
      return storyMediaIds(shopSettings.current());
    };
    const stopJobs = server
      ? startJobs(shopJobs({ database, payments, mail, media, auth, keptMedia }), log)
      : async () => {};
    return {
      config,
      database,
      media,
      payments,
      invoicing,
      mailer,
      mail,
      auth,
      settings: shopSettings,
      limits,
      cancelLinks: createCancelLinks(settings.secret),
      waitlistLinks,
      successLinks: createSuccessLinks(settings.secret),
      orderPageLinks,
      browserCookies: createBrowserCookies(settings.secret),
      proofOfWork,
      async stop() {
        // Rounds under way finish first: a message sent must be recorded as sent.
        shopSettings.stop();
        await stopJobs();
        await writePendingLooks(database.db);
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
