import type { DropStatus } from "~/db/taxonomy";
import { type DropTimeState, dropTimeState } from "./drop-time";

/** The home page shows every drop that has not been archived by hand, running ones first. */
export function dropsForHome<T extends { status: DropStatus; startAt: Date; endAt: Date }>(
  drops: T[],
  now: Date,
): T[] {
  const order = { running: 0, pending: 1, ended: 2 } as const;
  return drops
    .filter((d) => d.status !== "archivada")
    .map((d, i) => ({ d, i, rank: order[dropTimeState(d, now)] }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ d }) => d);
}

/** Stock that is 0 only because of unpaid checkouts: it may come back when a hold ends. */
export const HELD_LABEL = "Apartado — puede volver a estar disponible";

export type PieceLabel =
  | "Disponible próximamente"
  | "Colección finalizada"
  | "Producto agotado"
  | typeof HELD_LABEL;

/**
 * The label for a piece of a drop in `state`, or null when it can be bought. `held`: pieces of it
 * in checkouts still waiting for payment.
 */
export function pieceLabel(
  state: DropTimeState,
  archived: boolean,
  stock: number,
  held = 0,
): PieceLabel | null {
  if (archived || state === "ended") return "Colección finalizada";
  if (state === "pending") return "Disponible próximamente";
  if (stock <= 0) return held > 0 ? HELD_LABEL : "Producto agotado";
  return null;
}

/** The label a product tile shows instead of its price, or null when the piece can be bought. */
export function productTileLabel(
  drop: { status: DropStatus; startAt: Date; endAt: Date },
  stock: number,
  now: Date,
  held = 0,
): PieceLabel | null {
  return pieceLabel(dropTimeState(drop, now), drop.status === "archivada", stock, held);
}

/** Stock at or under this reads 'Quedan N' on the product page. */
export const FEW_LEFT = 3;

/** The product page's stock line. */
export function stockText(stock: number, held: number): string {
  if (stock <= 0) return held > 0 ? HELD_LABEL : "Producto agotado";
  if (stock === 1) return "Queda 1";
  if (stock <= FEW_LEFT) return `Quedan ${stock}`;
  return `Stock: ${stock} piezas`;
}

/** /colecciones: every drop, grouped by the year it was created, newest year and drop first. */
export function groupByYear<T extends { createdAt: Date }>(drops: T[], yearOf: (d: Date) => number) {
  const groups = new Map<number, T[]>();
  const sorted = [...drops].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  for (const drop of sorted) {
    const y = yearOf(drop.createdAt);
    groups.set(y, [...(groups.get(y) ?? []), drop]);
  }
  return [...groups.entries()].map(([year, items]) => ({ year, drops: items }));
}
