import { createContext } from "react-router";
import type { AdminAuth } from "~/auth/auth.server";
import type { Config } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import type { InvoicingProvider } from "~/invoices/invoicing-port";
import type { MailQueue } from "~/mail/delivery.server";
import type { Mailer } from "~/mail/mailer.server";
import type { MediaStorage } from "~/media/storage.server";
import type { CancelLinks } from "~/orders/cancel-link.server";
import type { OrderPageLinks } from "~/orders/order-page-link.server";
import type { PaymentProvider } from "~/orders/payment-port";
import type { SuccessLinks } from "~/orders/success-link.server";
import type { BrowserCookies } from "~/rate-limits/browser-cookie.server";
import type { ProofOfWork } from "~/rate-limits/proof-of-work.server";
import type { RequestLimits } from "~/rate-limits/request-limits.server";
import type { ShopSettingsService } from "~/settings/settings.server";
import type { WaitlistLinks } from "~/waitlist/links.server";

/** Everything a loader or action may use, created once per process. */
export interface Services {
  config: Config;
  database: Database;
  media: MediaStorage;
  payments: PaymentProvider;
  /** 'Requiero factura': who makes the facturas (decision 45); the local adapter records them. */
  invoicing: InvoicingProvider;
  mailer: Mailer;
  /** Queued e-mails: `mail.sendSoon()` after queueing one. */
  mail: MailQueue;
  auth: AdminAuth;
  /** Configuración: the shop's details, carriers, legal texts in force (`settings.current()`). */
  settings: ShopSettingsService;
  /** How often a browser and an address may start a checkout, leave the payment page, sign in, sign up for 'Avísame'. */
  limits: RequestLimits;
  /** Issues and checks the signed browser cookie (`navegador`): only the shop makes browsers. */
  browserCookies: BrowserCookies;
  /** The proof of work a checkout needs; null when CHECKOUT_CHALLENGE is off. */
  proofOfWork: ProofOfWork | null;
  /** Signs and checks the /cancel links of payment pages (one browser's own checkout only). */
  cancelLinks: CancelLinks;
  /** Signs and checks the confirm and unsubscribe links of 'Avísame' e-mails. */
  waitlistLinks: WaitlistLinks;
  /** Signs and checks the /success links: the order's details for the browser that paid only. */
  successLinks: SuccessLinks;
  /** 'Mi pedido': each order's page, signed for it. */
  orderPageLinks: OrderPageLinks;
  stop(): Promise<void>;
}

/** How route modules reach the services: `context.get(servicesContext)`. */
export const servicesContext = createContext<Services>();
