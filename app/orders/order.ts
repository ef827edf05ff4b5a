import type { OrderStatus, PaymentMethod } from "~/db/schema";
import { formatShopDate } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import type { ShippingChoice } from "~/settings/shipping-rates";
import type { ShippingAddress } from "./shipping";

/** An order as pages and e-mails show it (a plain type: components import it too). */
export interface Order {
  id: string;
  status: OrderStatus;
  totalCents: number;
  /** `$12,500.00` */
  total: string;
  /** The currency its total is in ('mxn'). */
  currency: string;
  createdAt: Date;
  paidAt: Date | null;
  shippedAt: Date | null;
  /** 'Borrar del historial' took it off the tabs then (its record kept, read-only); else null. */
  removedAt: Date | null;
  expiresAt: Date;
  /** 'Meses sin intereses': the months of the plan the buyer paid in; null for one payment. */
  installmentMonths: number | null;
  /** A card's kind as the payment provider told it ('credit', 'debit'…): a factura's forma de pago; else null. */
  cardFunding: string | null;
  /** When the owner marked it 'Entregado'; null: not marked (it may count as delivered anyway: delivery.server.ts). */
  deliveredAt: Date | null;
  /** The days after shipping it counts as delivered, as set when it shipped; null: the setting's (delivery.server.ts). */
  deliveryDays: number | null;
  /** The shop's origin the order was bought at ('Mi pedido' links there without a PUBLIC_URL). */
  siteUrl: string | null;
  /** The generation of its 'Mi pedido' links: links signed for an older one no longer open it. */
  linkVersion: number;
  /** The cash voucher or transfer the buyer pays with (decision 42); null: a card. */
  voucher: Voucher | null;
  /** Shipping the buyer paid, apart from the pieces (totalCents includes it): null for none (before decision 43). */
  shippingRate: ShippingChoice | null;
  /** The pieces alone: totalCents less shipping. */
  piecesCents: number;
  customerName: string;
  customerEmail: string;
  paymentSessionId: string | null;
  /** Why this paid order cannot be fully served from stock (refund by hand), or null. */
  stockIssue: string | null;
  /** When the missing pieces' price was given back (by the provider, or recorded by the owner); null: not yet. */
  missingRefundedAt: Date | null;
  /** Its delivery days count business days (shipped since migration 0042), or calendar days. */
  deliveryBusinessDays?: boolean;
  /**
   * That refund through the payment provider: `pendiente` while asked (`error`: why the last try
   * did not make it; `inProgress`: the provider has it in hand), `hecho` once made, `a_mano` when
   * no provider can make it (`error` says why: the owner gives it back); null for an order paid
   * before the shop asked providers for it (by hand too).
   */
  missingRefund: {
    status: "pendiente" | "hecho" | "a_mano";
    error: string | null;
    inProgress: boolean;
    /** Its last call got no answer: the provider may have made it, so not by hand meanwhile. */
    noAnswer: boolean;
    /** The owner recorded it by hand after the provider failed. */
    byHand: boolean;
  } | null;
  shipping: ShippingAddress | null;
  carrier: string | null;
  trackingNumber: string | null;
  /** The carrier's tracking page for this shipment, when the carrier is a known one. */
  trackingUrl: string | null;
  lines: {
    name: string;
    quantity: number;
    unitPriceCents: number;
    /** 'Pieza 7 de 30' (or 'Piezas 7 y 8 de 30'): the numbers its units got at payment; else null. */
    edition: string | null;
    /** Units not there when it was paid after its hold ended (a late voucher): not sent, refunded by the shop. */
    missing: number;
  }[];
  /** Cancelled over the per-person limit (decision 29): why, and how its refund stands; else null. */
  cancellation: OrderCancellation | null;
  /**
   * A voucher (OXXO, SPEI) cancelled before it was paid because it went over a drop's 'Máximo N por
   * persona' (decisions 29, 42): why, and when; nothing was charged, so no refund. Else null.
   */
  voucherCancelled: { reason: string; at: Date } | null;
}

/** What the missing pieces of a late payment come to (their shipping too when nothing is sent). */
export function missingCents(order: {
  lines: readonly { missing: number; quantity: number; unitPriceCents: number }[];
  shippingRate: { cents: number } | null;
}): number {
  const shipping = nothingToSend(order) ? (order.shippingRate?.cents ?? 0) : 0;
  return order.lines.reduce((sum, l) => sum + l.missing * l.unitPriceCents, 0) + shipping;
}

/**
 * What cancelling a paid order gives back: its total, less missing pieces already given back, or
 * being given back through the provider (that refund goes on: both together are the total).
 */
export function cancellationCents(
  order: Pick<Order, "totalCents" | "lines" | "shippingRate" | "missingRefundedAt"> &
    Partial<Pick<Order, "missingRefund">>,
): number {
  const apart = order.missingRefundedAt !== null || order.missingRefund?.status === "pendiente";
  return order.totalCents - (apart ? missingCents(order) : 0);
}

/**
 * What the buyer is told of pieces her payment came too late for (paid after its hold ended, with
 * none left: the owner refunds them by hand, decision 42), and, once the owner recorded it, that
 * the money was given back: null when every piece was there.
 */
export function missingPiecesNotice(
  order: Pick<Order, "lines" | "shippingRate"> &
    Partial<Pick<Order, "missingRefundedAt" | "missingRefund" | "voucher">>,
): string | null {
  const missing = order.lines.filter((l) => l.missing > 0);
  if (missing.length === 0) return null;
  const names = missing.map((l) => `${l.name} × ${l.missing}`).join(", ");
  const one = missing.length === 1 && missing[0]?.missing === 1;
  const which = one ? "esta pieza ya no estaba disponible" : "estas piezas ya no estaban disponibles";
  const sent = nothingToSend(order)
    ? "No hay piezas que enviarte de este pedido"
    : `No ${one ? "la" : "las"} incluiremos en tu envío`;
  const amount = `${formatMXN(missingCents(order))} MXN`;
  const money = order.missingRefundedAt
    ? `te devolvimos ${amount} el ${formatShopDate(order.missingRefundedAt)}`
    : order.missingRefund?.status === "pendiente"
      ? // Through the provider, already asked: said as it goes back.
        `te devolvemos ${amount}${refundWayOf(order.voucher?.method ?? null)}`
      : `te escribiremos para devolverte ${amount}`;
  return `Tu pago llegó después de que venció tu apartado, y ${which}: ${names}. ${sent}; ${money}.`;
}

/** Every piece of a paid order was gone when its late payment came: nothing will be sent. */
export function nothingToSend(order: { lines: readonly { missing: number; quantity: number }[] }): boolean {
  return order.lines.length > 0 && order.lines.every((l) => l.missing >= l.quantity);
}

/** What the buyer is told once every piece of her paid order was gone: her refund comes. */
export const REFUND_FOR_NOTHING_SENT =
  "Te escribiremos para hacer tu reembolso. Si tienes dudas, escríbenos.";

/** A voucher given for an order: what the buyer needs to pay it, and until when. */
export interface Voucher {
  method: PaymentMethod;
  /** The OXXO barcode's number, or the transfer's reference. */
  reference: string;
  /** The account a SPEI transfer goes to; null for OXXO. */
  clabe: string | null;
  /** The provider's printable voucher or instructions, when it has one. */
  url: string | null;
  expiresAt: Date;
}

/** An order's 'Envío' line as pages and e-mails show it: its label and amount ('Gratis' when free); null for none. */
export function shippingLineOf(order: Pick<Order, "shippingRate">): { label: string; amount: string } | null {
  const rate = order.shippingRate;
  if (!rate) return null;
  // 'Envío express (1 a 2 días hábiles)' says it; an owner's own name ('Estafeta') gets 'Envío: '.
  const label = /^env[ií]o\b/i.test(rate.label) ? rate.label : `Envío: ${rate.label}`;
  return { label, amount: rate.cents === 0 ? "Gratis" : formatMXN(rate.cents) };
}

/**
 * The reference recorded for a refund the owner made herself ('Ya lo reembolsé a mano': a
 * cancellation's or a return's): not the provider's, nor its way of paying back.
 */
export const REFUNDED_BY_HAND = "a-mano";

/** What a refund the provider accepted and has not finished says in its record (refunds.server.ts). */
export const REFUND_IN_PROGRESS = "en curso en el proveedor";

/** The refund's reason on a cancellation by the shop ('Eliminar pedido' on a paid order, decision 37). */
export const SHOP_CANCELLATION = "Cancelado por la tienda";

/** The refund's reason on an order paid after its hold expired, every piece sold meanwhile. */
export const SOLD_OUT_AT_PAYMENT = "Pagado después de vencer el apartado: sus piezas ya no estaban";

/** The refund's reason on an order whose charge was not its total (another amount or currency). */
export const CHARGE_MISMATCH = "El cobro no coincidió con el total del pedido: se devuelve lo cobrado";

export interface OrderCancellation {
  reason: string;
  /** Cancelled by the shop ('Eliminar pedido'); false: at payment (over the limit, or sold out). */
  byShop: boolean;
  /** Paid after its hold expired with every piece gone meanwhile (`SOLD_OUT_AT_PAYMENT`). */
  soldOut: boolean;
  /** The provider charged another amount or currency than its total (`CHARGE_MISMATCH`). */
  mismatch: boolean;
  amountCents: number;
  /** `pendiente`: not made yet (the provider failed; retried); `hecho`: the provider made it. */
  refund: "pendiente" | "hecho";
  /** Pending because the provider has it under way (some take days): nothing to do by hand. */
  inProgress: boolean;
  /** Its last call got no answer: the provider may have made it, so not by hand until it answers. */
  noAnswer: boolean;
  /** No provider can make it (cash at OXXO, another provider): the owner gives the money back herself. */
  byHand: boolean;
  refundId: string | null;
  refundedAt: Date | null;
  attempts: number;
  lastError: string | null;
}

/**
 * Whether someone bought the order: paid, or given a voucher to pay (her e-mail known). A hold
 * nobody paid has no buyer: 'Mi pedido' and 'Requiero factura' show nothing of it.
 */
export function hasBuyer(order: Pick<Order, "status" | "voucher" | "customerEmail">): boolean {
  return !(order.status === "esperando_pago" && !order.voucher) && order.customerEmail !== "";
}

/** How the provider sends a refund back for a way of paying; empty when it cannot (cash at OXXO). */
export function refundWayOf(paymentMethod: string | null): string {
  if (paymentMethod === null) return " al mismo medio con que pagaste";
  return paymentMethod === "spei" ? " a la cuenta desde la que transferiste" : "";
}
