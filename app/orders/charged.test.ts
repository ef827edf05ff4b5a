import { describe, expect, it } from "vitest";
import { chargeMismatch } from "./charged";

// An order of $4,500.00 in pieces, not paid yet (no shipping recorded), and one paid with $150.00 of shipping.
const waiting = { totalCents: 450_000, shippingCents: 0, currency: "mxn" };
const paid = { totalCents: 465_000, shippingCents: 15_000, currency: "mxn" };

describe("what the provider charged, against what the order asks", () => {
  it("the pieces plus the shipping chosen, in the order's currency (any case), is the order's", () => {
    expect(chargeMismatch(waiting, { amountCents: 450_000, currency: "mxn" }, 0)).toBeNull();
    expect(chargeMismatch(waiting, { amountCents: 465_000, currency: "MXN" }, 15_000)).toBeNull();
    // Applied again to the paid order (a replay): the same.
    expect(chargeMismatch(paid, { amountCents: 465_000, currency: "mxn" }, 15_000)).toBeNull();
  });

  it("another amount: what was charged goes back, both amounts said in Spanish", () => {
    expect(chargeMismatch(waiting, { amountCents: 450_100, currency: "mxn" }, 0)).toEqual({
      refundCents: 450_100,
      currency: "mxn",
      detail:
        "El proveedor de pagos cobró $4,501.00 MXN, pero el pedido suma $4,500.00 MXN: no se dio por pagado y se devuelve lo cobrado.",
    });
  });

  it("another currency, or none said: never the order's", () => {
    expect(chargeMismatch(waiting, { amountCents: 450_000, currency: "usd" }, 0)).toMatchObject({
      refundCents: 450_000,
      currency: "usd",
      detail: expect.stringContaining("cobró 4500.00 USD"),
    });
    expect(chargeMismatch(waiting, { amountCents: null, currency: null }, 0)).toMatchObject({
      refundCents: 450_000,
      currency: "mxn",
      detail: expect.stringContaining("cobró un monto que no indicó"),
    });
  });
});
