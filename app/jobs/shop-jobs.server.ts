import type { AdminAuth } from "~/auth/auth.server";
import type { Database } from "~/db/database.server";
import type { MailQueue } from "~/mail/delivery.server";
import { makeMissingJpegCopies } from "~/media/jpeg-copies.server";
import type { MediaStorage } from "~/media/storage.server";
import { sweepUnusedMedia } from "~/media/sweep.server";
import { retryMissingRefunds } from "~/orders/missing-refund.server";
import { openingRushUnderway } from "~/orders/opening-rush.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { retryPendingRefunds } from "~/orders/refunds.server";
import { sweepExpiredHolds } from "~/orders/sweeper.server";
import { forgetUnpaidBuyers } from "~/orders/unpaid-retention.server";
import { deleteExpiredLimits } from "~/rate-limits/expired-limits.server";
import { retryReturnRefunds } from "~/returns/refund.server";
import { queueOpeningNotices } from "~/waitlist/waitlist.server";
import type { Job } from "./scheduler.server";

export interface ShopJobDeps {
  database: Database;
  payments: PaymentProvider;
  mail: MailQueue;
  media: MediaStorage;
  auth: AdminAuth;
  /** Media named outside the catalogue (the storefront's photos), read when the sweep runs. */
  keptMedia?: () => Promise<string[]>;
}

/** The shop's background work, every app server running all of it (see scheduler.server.ts). */
export function shopJobs({ database, payments, mail, media, auth, keptMedia }: ShopJobDeps): Job[] {
  return [
    {
      name: "Apartados vencidos",
      everyMs: 60_000,
      runAtStart: true,
      async run() {
        const { released, paid, failed } = await sweepExpiredHolds(database.db, payments);
        if (released + paid + failed === 0) return null;
        // Pieces released may have told addresses waiting for them ('Avísame si vuelve').
        if (released > 0) mail.sendSoon();
        // Failures were logged one by one; the count says how many wait for the next round.
        const pending = failed > 0 ? `, ${failed} sin resolver (se reintentan)` : "";
        return `Apartados vencidos: ${released} liberados, ${paid} pagados${pending}.`;
      },
    },
    {
      // Orders cancelled (over a per-person limit, or by the shop) and returns whose refund the
      // provider did not make yet.
      name: "Reembolsos",
      everyMs: 60_000,
      runAtStart: true,
      async run() {
        const orders = await retryPendingRefunds(database.db, payments);
        // Returns received whose partial refund the provider did not make yet (decision 48).
        const returns = await retryReturnRefunds(database.db, payments);
        // A late payment's missing pieces, given back through the provider (decision 37).
        const missing = await retryMissingRefunds(database.db, payments);
        const refunded = orders.refunded + returns.refunded + missing.refunded;
        const failed = orders.failed + returns.failed + missing.failed;
        const inProgress = orders.inProgress + returns.inProgress + missing.inProgress;
        if (refunded + failed + inProgress === 0) return null;
        if (refunded > 0) mail.sendSoon();
        const pending = failed > 0 ? `, ${failed} sin hacer (se reintentan)` : "";
        const waiting = inProgress > 0 ? `, ${inProgress} en curso en el proveedor` : "";
        return `Reembolsos: ${refunded} hechos${pending}${waiting}.`;
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
        const keep = (await keptMedia?.()) ?? [];
        const { rows, files, copies } = await sweepUnusedMedia(database.db, media, new Date(), keep);
        // Photos whose JPEG copies went missing: made again now.
        const remade = copies > 0 ? (await makeMissingJpegCopies(database.db, media)).made : 0;
        const again = remade > 0 ? `; ${remade} copias JPEG hechas de nuevo` : "";
        return rows + files + remade > 0
          ? `Medios sin usar borrados: ${rows} registros, ${files} archivos${again}.`
          : null;
      },
    },
    {
      // Photos stored before their JPEG copies (e-mails, link previews) were made with every upload (decision 4).
      name: "Copias JPEG de las fotos",
      everyMs: 60 * 60_000,
      runAtStart: true,
      async run() {
        const { made, lost } = await makeMissingJpegCopies(database.db, media);
        if (made + lost === 0) return null;
        const missing = lost > 0 ? `; ${lost} sin copia WebP de la cual hacerla` : "";
        return `Copias JPEG de las fotos: ${made} hechas${missing}.`;
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
    {
      // The privacy notice: a buyer who never paid is not kept (a month after her hold ended).
      name: "Datos de pedidos sin pagar",
      everyMs: 6 * 60 * 60_000,
      async run() {
        const forgotten = await forgetUnpaidBuyers(database.db);
        return forgotten > 0 ? `Datos de pedidos sin pagar: ${forgotten} borrados.` : null;
      },
    },
    {
      // Request counts and proofs of work already spent, once their time is over.
      name: "Límites vencidos",
      everyMs: 15 * 60_000,
      async run() {
        // Not in a drop's opening rush: the rows wait, the shoppers' writes go first.
        if (await openingRushUnderway(database.db)) return null;
        const deleted = await deleteExpiredLimits(database.db);
        return deleted > 0 ? `Límites vencidos: ${deleted} borrados.` : null;
      },
    },
  ];
}
