import { describe, expect, it } from "vitest";
import {
  MAX_LINE_QUANTITY,
  MAX_ORDER_LINES,
  MAX_ORDER_PIECES,
  MAX_ORDER_TOTAL_CENTS,
} from "~/config/ceilings";
import { MAX_PRICE_CENTS, MAX_STOCK } from "~/db/taxonomy";
import { DB_INTEGER_MAX } from "~/lib/money";
import {
  lineQuantityMessage,
  ORDER_TOTAL_MESSAGE,
  orderPiecesMessage,
  piecesRefusal,
  totalRefusal,
} from "./ceilings";

const LINE_QUANTITY_MESSAGE = lineQuantityMessage(MAX_LINE_QUANTITY);
const ORDER_PIECES_MESSAGE = orderPiecesMessage(MAX_ORDER_PIECES);

const lines = (...quantities: number[]) =>
  quantities.map((quantity, i) => ({ productId: `p${i}`, quantity }));

describe("the size of one order", () => {
  it("every cap keeps every stored number inside PostgreSQL's 32-bit integer", () => {
    expect(MAX_ORDER_TOTAL_CENTS).toBe(99_999_999);
    expect(MAX_ORDER_TOTAL_CENTS).toBeLessThan(DB_INTEGER_MAX);
    // A piece at the highest price can still be bought: one payment takes it.
    expect(MAX_PRICE_CENTS).toBeLessThanOrEqual(MAX_ORDER_TOTAL_CENTS);
    // Even unchecked, the largest sum the shop computes before refusing is exact and small.
    expect(MAX_ORDER_PIECES * MAX_PRICE_CENTS).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(MAX_LINE_QUANTITY).toBeLessThanOrEqual(MAX_ORDER_PIECES);
    expect(MAX_STOCK).toBeLessThan(DB_INTEGER_MAX);
  });

  it(`takes up to ${MAX_LINE_QUANTITY} pieces of one product, refusing one more`, () => {
    expect(piecesRefusal(lines(MAX_LINE_QUANTITY))).toBeNull();
    expect(piecesRefusal(lines(MAX_LINE_QUANTITY + 1))).toEqual({
      reason: "limite_piezas",
      message: LINE_QUANTITY_MESSAGE,
    });
    expect(LINE_QUANTITY_MESSAGE).toBe("Puedes comprar hasta 50 piezas de un mismo producto por pedido.");
  });

  it("counts a product's sizes together toward its ceiling", () => {
    const sizes = (six: number, seven: number) => [
      { productId: "anillo", optionId: "talla-6", quantity: six },
      { productId: "anillo", optionId: "talla-7", quantity: seven },
    ];
    expect(piecesRefusal(sizes(25, 25))).toBeNull();
    expect(piecesRefusal(sizes(25, 26))).toEqual({ reason: "limite_piezas", message: LINE_QUANTITY_MESSAGE });
  });

  it(`takes up to ${MAX_ORDER_PIECES} pieces in all, refusing one more`, () => {
    expect(piecesRefusal(lines(50, 50))).toBeNull();
    expect(piecesRefusal(lines(50, 49, 1))).toBeNull();
    expect(piecesRefusal(lines(50, 50, 1))).toEqual({
      reason: "limite_piezas",
      message: ORDER_PIECES_MESSAGE,
    });
    expect(ORDER_PIECES_MESSAGE).toBe("Un pedido puede tener hasta 100 piezas: quita algunas del carrito.");
  });

  it(`takes up to ${MAX_ORDER_LINES} different products`, () => {
    expect(piecesRefusal(lines(...Array(MAX_ORDER_LINES).fill(1)))).toBeNull();
    expect(piecesRefusal(lines(...Array(MAX_ORDER_LINES + 1).fill(1)))?.message).toBe(
      "Un pedido puede tener hasta 50 productos distintos.",
    );
  });

  it("takes a total of up to $999,999.99 (one payment), refusing one centavo more", () => {
    expect(totalRefusal([{ unitPriceCents: MAX_ORDER_TOTAL_CENTS, quantity: 1 }])).toBeNull();
    expect(
      totalRefusal([
        { unitPriceCents: 33_333_333, quantity: 3 },
        { unitPriceCents: 0, quantity: 50 },
      ]),
    ).toBeNull();
    const over = [
      { unitPriceCents: 33_333_333, quantity: 3 },
      { unitPriceCents: 1, quantity: 1 },
    ];
    expect(totalRefusal(over)).toEqual({ reason: "limite_total", message: ORDER_TOTAL_MESSAGE });
    expect(ORDER_TOTAL_MESSAGE).toBe(
      "El total de un pedido puede ser de hasta $999,999.99: quita algunas piezas del carrito.",
    );
    // The largest order the pieces' caps allow is refused, not overflowed.
    expect(totalRefusal([{ unitPriceCents: MAX_PRICE_CENTS, quantity: MAX_ORDER_PIECES }])?.reason).toBe(
      "limite_total",
    );
  });
});
