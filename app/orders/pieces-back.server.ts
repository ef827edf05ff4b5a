import type { Db } from "~/db/database.server";
import { piecesCameBack } from "~/waitlist/restock.server";
import { restock, type StockLine } from "./stock.server";

/**
 * Pieces back on the shelf (a hold released, an order cancelled, a return restocked): their stock
 * back, and the first addresses waiting for them in 'Avísame si vuelve' told, one per piece
 * (decision 46), in the caller's transaction. `cause` names the event once for every app server
 * (`apartado:<order>`, `cancelacion:<order>`, `devolucion:<return>`): a repeat tells nobody more.
 * Returns the lines that went back (restock's: a piece with no shelf left to take it does not).
 */
export async function putPiecesBack(
  trx: Db,
  lines: readonly StockLine[],
  cause: string,
  now: Date,
): Promise<StockLine[]> {
  const back = await restock(trx, lines, now);
  // 'Avísame si vuelve' only for pieces that are on sale again.
  for (const line of back) {
    if (line.quantity <= 0) continue;
    await piecesCameBack(
      trx,
      { productId: line.productId, optionId: line.optionId, count: line.quantity, cause },
      now,
    );
  }
  return back;
}
