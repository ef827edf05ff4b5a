import type { OrderStatus } from "~/db/schema";

/*
 * An order's life, as one table of allowed moves. Every change of status in the shop is one of
 * these moves, applied with a conditional update (`where status in from`), so two tabs or two app
 * servers racing on one order cannot both win, and a move from the wrong status changes nothing.
 *
 *   esperando_pago --pay--> pendiente --ship--> enviado --archive--> archivado
 *        |   ^    (correct buyer: pendiente -> pendiente; correct tracking: enviado -> enviado)
 *   release  pay (paid after its hold expired)
 *        v   |
 *      expirado
 *
 * A paid order is never destroyed (decision 37). 'Eliminar pedido' cancels a pending one with a
 * refund through the provider (`cancelByShop`; its pieces go back when the refund is made, and a
 * refund the provider refuses moves it back, `refundRefused`); 'Borrar del historial'
 * (`deleteFromHistory`) takes a shipped or archived one off the tabs, the record kept; an archived
 * one can be moved back (`unarchive`).
 *
 *   pendiente --cancelOverLimit / cancelSoldOut / cancelByShop--> cancelado --refundRefused--> pendiente
 *   esperando_pago, expirado --cancelMismatch--> cancelado
 *   esperando_pago, expirado --cancelVoucherOverLimit--> cancelado (a voucher over the limit, never paid)
 *   archivado --unarchive--> enviado
 *
 * A payment beyond a drop's 'Máximo N por persona' (decision 29) is cancelled in the very
 * transaction that confirms it: refunded through the provider, its pieces back to the line. So is
 * one paid after its hold expired whose every piece was sold meanwhile (nothing to send). A
 * cancelled order is never shipped, deleted or paid again: no move starts from it.
 */
export const ORDER_MOVES = {
  pay: { from: ["esperando_pago", "expirado"], to: "pendiente" },
  release: { from: ["esperando_pago"], to: "expirado" },
  ship: { from: ["pendiente"], to: "enviado" },
  correctTracking: { from: ["enviado"], to: "enviado" },
  // The buyer's name, e-mail, phone or address corrected by the owner: only before it ships, so a
  // correction racing a shipment never changes what was sent (buyer-correction.server.ts).
  correctBuyer: { from: ["pendiente"], to: "pendiente" },
  archive: { from: ["enviado"], to: "archivado" },
  unarchive: { from: ["archivado"], to: "enviado" },
  // 'Eliminar pedido' (a cancellation with its refund) and 'Borrar del historial' are two moves, so
  // one confirmed for a pending order cannot touch one that another tab just shipped. `null`: the
  // status stays, the order leaves the tabs (`removed_at`).
  cancelByShop: { from: ["pendiente"], to: "cancelado" },
  refundRefused: { from: ["cancelado"], to: "pendiente" },
  deleteFromHistory: { from: ["enviado", "archivado"], to: null },
  cancelOverLimit: { from: ["pendiente"], to: "cancelado" },
  // Paid after its hold expired with every piece gone meanwhile: nothing to send, the whole
  // payment refunded through the provider, in the payment's own transaction.
  cancelSoldOut: { from: ["pendiente"], to: "cancelado" },
  // The provider charged another amount or currency than the order asks: never taken as paid,
  // cancelled with a refund of what was charged, in the payment's own transaction (decision 37).
  cancelMismatch: { from: ["esperando_pago", "expirado"], to: "cancelado" },
  // A voucher (OXXO, SPEI) over a drop's 'Máximo N por persona', its payment cancelled at the
  // provider before it was paid: nothing was charged, nothing to refund (decisions 29, 42).
  cancelVoucherOverLimit: { from: ["esperando_pago", "expirado"], to: "cancelado" },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus | null }>;

export type OrderMove = keyof typeof ORDER_MOVES;

export function canMove(status: OrderStatus, move: OrderMove): boolean {
  return (ORDER_MOVES[move].from as readonly OrderStatus[]).includes(status);
}

/** The statuses a move starts from, for its conditional update. */
export function movableFrom(move: OrderMove): OrderStatus[] {
  return [...ORDER_MOVES[move].from];
}

/** Paid orders, the ones the owner works with: the three tabs of the orders desk. */
export const DESK_TABS = ["pendiente", "enviado", "archivado"] as const;
export type DeskTab = (typeof DESK_TABS)[number];

export function isDeskTab(value: string | null | undefined): value is DeskTab {
  return (DESK_TABS as readonly string[]).includes(value ?? "");
}

/**
 * What the desk lists: its three tabs, and two read-only views of the records kept for the
 * accounts: 'Cancelados' (refunded: over the per-person limit, or cancelled by the shop; and vouchers
 * over the limit cancelled before they were paid) and
 * 'Borrados del historial' (shipped orders taken off the tabs). Cancelled orders are not sales:
 * reports count the statuses of DESK_TABS only (an order taken off the tabs was still sold).
 */
export const DESK_VIEWS = [...DESK_TABS, "cancelado", "borrado"] as const;
export type DeskView = (typeof DESK_VIEWS)[number];

export function isDeskView(value: string | null | undefined): value is DeskView {
  return (DESK_VIEWS as readonly string[]).includes(value ?? "");
}

/** The desk's names for its views. */
export const VIEW_LABELS: Record<DeskView, string> = {
  pendiente: "Pendiente",
  enviado: "Enviado",
  archivado: "Archivado",
  cancelado: "Cancelados",
  borrado: "Borrados del historial",
};

export const STATUS_LABELS: Record<OrderStatus, string> = {
  esperando_pago: "Esperando pago",
  pendiente: "Pendiente",
  enviado: "Enviado",
  archivado: "Archivado",
  expirado: "Pago vencido",
  cancelado: "Cancelado",
};

/**
 * The desk's buttons, in the spec's words, and the move each makes; a status shows the buttons
 * whose move it allows: pendiente 'Atender pedido', 'Eliminar pedido'; enviado 'Archivar',
 * 'Borrar del historial'; archivado 'Borrar del historial'.
 */
export const DESK_ACTIONS = {
  atender: "ship",
  archivar: "archive",
  eliminar: "cancelByShop",
  borrar: "deleteFromHistory",
  desarchivar: "unarchive",
} as const satisfies Record<string, OrderMove>;

export type DeskAction = keyof typeof DESK_ACTIONS;

export function deskActions(status: OrderStatus): DeskAction[] {
  return (Object.keys(DESK_ACTIONS) as DeskAction[]).filter((action) =>
    canMove(status, DESK_ACTIONS[action]),
  );
}
