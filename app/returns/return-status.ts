import type { ReturnStatus } from "~/db/schema";

/*
 * A return's life (decision 48), as one table of allowed moves. Every change is one of these,
 * applied with a conditional update (`where status in from`), so two tabs of the desk or two app
 * servers racing on one return cannot both win.
 *
 *   solicitada --accept--> aceptada --receive--> recibida --refunded--> reembolsada
 *        |                  |
 *     decline             close
 *        v                  v
 *    rechazada           cerrada
 *
 * 'receive' records the owner's choice of what goes back to stock and the refund owed; the refund
 * is then asked of the provider until it is made ('refunded'). 'close' settles an accepted return
 * whose pieces never came (the buyer kept them, or will not send them), with no refund. Nothing
 * moves out of 'rechazada', 'cerrada' or 'reembolsada': the buyer may ask again (a new return)
 * while her window lasts.
 */
export const RETURN_MOVES = {
  accept: { from: ["solicitada"], to: "aceptada" },
  decline: { from: ["solicitada"], to: "rechazada" },
  receive: { from: ["aceptada"], to: "recibida" },
  refunded: { from: ["recibida"], to: "reembolsada" },
  close: { from: ["aceptada"], to: "cerrada" },
} as const satisfies Record<string, { from: readonly ReturnStatus[]; to: ReturnStatus }>;

export type ReturnMove = keyof typeof RETURN_MOVES;

export function canMoveReturn(status: ReturnStatus, move: ReturnMove): boolean {
  return (RETURN_MOVES[move].from as readonly ReturnStatus[]).includes(status);
}

/** The statuses a move starts from, for its conditional update. */
export function returnMovableFrom(move: ReturnMove): ReturnStatus[] {
  return [...RETURN_MOVES[move].from];
}

/** Returns still under way: one per order at a time (a unique index holds it too). */
export const OPEN_RETURN_STATUSES = [
  "solicitada",
  "aceptada",
  "recibida",
] as const satisfies readonly ReturnStatus[];

/** How the buyer's page and the desk name each status. */
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  solicitada: "Solicitada",
  aceptada: "Aceptada: esperando las piezas",
  rechazada: "Rechazada",
  recibida: "Recibida: reembolso en curso",
  reembolsada: "Reembolsada",
  cerrada: "Cerrada sin reembolso",
};

/** Why a buyer returns pieces: the shop's short list (her own words go with it). */
export const RETURN_REASONS = {
  talla: "No me quedó (talla o medida)",
  gusto: "No es lo que esperaba",
  danada: "Llegó dañada o con un defecto",
  equivocada: "Recibí una pieza distinta",
  otro: "Otro motivo",
  // The law asks no reason (LFPC art. 56): she may give none.
  sin_motivo: "Prefiero no decirlo",
} as const;

export type ReturnReason = keyof typeof RETURN_REASONS;

export function isReturnReason(value: string): value is ReturnReason {
  return Object.hasOwn(RETURN_REASONS, value);
}

/**
 * What she asked to return and did not reach the shop (a return received with fewer pieces): not
 * refunded, still hers, which her page and e-mail name. Null when everything arrived or nothing
 * was received yet.
 */
export function piecesNotArrived(
  lines: readonly { name: string; asked: number; received: number | null }[],
  /** Where she reads it: her e-mail (she can reply to it) or her order's page. */
  where: "correo" | "pagina",
): string | null {
  const short = lines.filter((l) => l.received !== null && l.received < l.asked);
  if (short.length === 0) return null;
  const names = short.map((l) => `${l.name} × ${l.asked - (l.received ?? 0)}`).join(", ");
  const missing = short.reduce((n, l) => n + l.asked - (l.received ?? 0), 0);
  const it = missing === 1 ? "la" : "las";
  const ask =
    where === "correo"
      ? `si ${it} enviaste, respóndenos con la guía de tu envío y lo revisamos`
      : `si ${it} enviaste, escríbenos con la guía de tu envío y lo revisamos; mientras dure tu plazo también puedes pedir su devolución de nuevo`;
  return `No nos llegaron todas las piezas: ${names}. No ${it} incluimos en tu reembolso; ${ask}.`;
}
