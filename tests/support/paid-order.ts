import type { Database } from "~/db/database.server";
import type { BuyerInput } from "~/orders/buyer-input";
import { type HeldOrder, holdCart } from "~/orders/holds.server";
import { confirmPayment, type PaymentConfirmation } from "~/orders/payment.server";
import { oaxacaAddress, runningPiece } from "./catalogue";

/** The buyer of `paidOrder` unless told otherwise: Ana Pérez, in Oaxaca. */
export const ANA = { name: "Ana Pérez", email: "ana.perez@example.mx", phone: "951 123 4567" } as const;

/**
 * A buyer as she typed herself at checkout, for the tests of a correction: her street number wrong
 * (401 for 410), her e-mail's domain misspelt, her name without its accent.
 */
export const TYPED_BUYER: BuyerInput = (() => {
  const { country: _country, ...address } = oaxacaAddress("Ana Peres", "951 123 4567");
  return { ...address, email: "ana.perez@gmial.com" };
})();

/** The shipping address a payment records for `buyer`, as she typed it. */
export function typedShipping(buyer: BuyerInput) {
  return { ...oaxacaAddress(buyer.name, buyer.phone), ...buyer, country: "MX" };
}

/**
 * A paid order (pendiente), bought on the demo page: `quantity` of `piece` (by default a new
 * running piece with just that stock), by `buyer`, shipped to her Oaxaca address unless `shipping`
 * says otherwise (null: none, as a payment page that asks for none). A refusal at the hold or at
 * the payment fails the test with it.
 */
export async function paidOrder(
  database: Database,
  options: {
    piece?: { id: string; dropId: string };
    quantity?: number;
    buyer?: { name: string; email: string; phone?: string };
    shipping?: PaymentConfirmation["shipping"];
  } = {},
): Promise<HeldOrder> {
  const quantity = options.quantity ?? 1;
  const piece = options.piece ?? (await runningPiece(database, { stock: quantity }));
  const held = await holdCart(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity }],
    provider: "demo",
  });
  if (!held.ok) throw new Error(`hold refused: ${held.message}`);
  const buyer = options.buyer ?? ANA;
  const outcome = await confirmPayment(database.db, {
    orderId: held.id,
    customerName: buyer.name,
    customerEmail: buyer.email,
    shipping:
      options.shipping === undefined ? oaxacaAddress(buyer.name, buyer.phone ?? ANA.phone) : options.shipping,
  });
  if (outcome !== "paid") throw new Error(`payment not recorded as paid: ${outcome}`);
  return held;
}
