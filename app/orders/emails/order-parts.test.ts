import { describe, expect, it } from "vitest";
import type { Order } from "../order";
import { piecesOf, planLine } from "./order-parts";

const order = {
  total: "$62,000.00",
  installmentMonths: null,
  lines: [{ name: "Collar Meses", quantity: 1, unitPriceCents: 6_000_000, edition: null }],
} as unknown as Order;

describe("an order's pieces in its e-mails", () => {
  it("say the total includes IVA, in text and HTML", () => {
    const pieces = piecesOf(order);
    expect(pieces.text).toContain("Total: $62,000.00 MXN, IVA incluido");
    expect(pieces.html).toContain("<strong>Total</strong> (IVA incluido)");
  });

  it("name the plan the buyer chose ('meses sin intereses'), and none for one payment", () => {
    expect(planLine(order)).toBeNull();
    const inSix = { ...order, installmentMonths: 6 };
    expect(piecesOf(inSix).text).toContain("Pagado a 6 meses sin intereses");
    expect(piecesOf(inSix).html).toContain("Pagado a 6 meses sin intereses");
    expect(piecesOf(order).text.join("\n")).not.toContain("meses sin intereses");
  });

  it("list the shipping apart from the pieces ('Envío' line, 'Gratis' when free), and none without it", () => {
    const express = {
      ...order,
      total: "$62,350.00",
      shippingRate: { method: "express", label: "Envío express (1 a 2 días hábiles)", cents: 35_000 },
    } as Order;
    expect(piecesOf(express).text).toEqual([
      "- Collar Meses × 1: $60,000.00",
      "- Envío express (1 a 2 días hábiles): $350.00",
      "Total: $62,350.00 MXN, IVA incluido",
    ]);
    expect(piecesOf(express).html).toContain(
      '<td style="padding:6px 0">Envío express (1 a 2 días hábiles)</td><td style="padding:6px 0;text-align:right">$350.00</td>',
    );
    const free = {
      ...express,
      shippingRate: { method: "estandar", label: "Estafeta", cents: 0 },
    } as Order;
    expect(piecesOf(free).text).toContain("- Envío: Estafeta: Gratis");
    expect(piecesOf(order).text.join("\n")).not.toContain("Envío");
  });
});
