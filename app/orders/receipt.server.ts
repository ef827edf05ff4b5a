import type { Db } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { type VoucherView, voucherView } from "./emails/voucher";
import { shippingLineOf } from "./order";
import { getOrder } from "./queries.server";

/** What the /success page shows the browser that paid. */
export interface Receipt {
  id: string;
  /** The generation of its 'Mi pedido' links, to sign the one the page offers. */
  linkVersion: number;
  lines: { name: string; quantity: number; lineTotal: string }[];
  total: string;
  /** Its 'Envío' line, apart from the pieces (the total includes it); null for none. */
  shipping: { label: string; amount: string } | null;
  /** Where the confirmation goes; empty while the provider has not confirmed the payment yet. */
  email: string;
  /** The provider sent the shopper back before its confirmation reached the shop. */
  confirming: boolean;
  /** Cancelled over a drop's per-person limit (decision 29): why; null otherwise. */
  cancelled: string | null;
  /** Cancelled by the shop, its total refunded (decision 37). */
  cancelledByShop: boolean;
  /** Paid after its hold expired with every piece sold meanwhile: cancelled, its whole payment refunded. */
  cancelledSoldOut: boolean;
  /** Charged another amount or currency than its total: cancelled, what was charged refunded. */
  cancelledMismatch: boolean;
  /** The OXXO voucher or SPEI transfer still to pay (decision 42); null otherwise. */
  voucher: VoucherView | null;
  /** Its voucher cancelled before it was paid, over a drop's per-person limit: why; null otherwise. */
  voucherCancelled: string | null;
}

/** The order as a receipt, or null when it is not (or no longer) one worth showing. */
export async function receiptOf(db: Db, orderId: string): Promise<Receipt | null> {
  const order = await getOrder(db, orderId);
  if (!order || order.status === "expirado") return null;
  return {
    id: order.id,
    linkVersion: order.linkVersion,
    lines: order.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      lineTotal: formatMXN(l.unitPriceCents * l.quantity),
    })),
    total: order.total,
    shipping: shippingLineOf(order),
    email: order.customerEmail,
    confirming: order.status === "esperando_pago",
    cancelled:
      order.cancellation &&
      !order.cancellation.byShop &&
      !order.cancellation.soldOut &&
      !order.cancellation.mismatch
        ? order.cancellation.reason
        : null,
    cancelledByShop: order.cancellation?.byShop ?? false,
    cancelledSoldOut: order.cancellation?.soldOut ?? false,
    cancelledMismatch: order.cancellation?.mismatch ?? false,
    voucher: voucherView(order),
    voucherCancelled: order.voucherCancelled?.reason ?? null,
  };
}
