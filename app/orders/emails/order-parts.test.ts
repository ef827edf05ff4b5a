import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OrderSummary, orderSummaryText } from "~/mail/components";
import type { Order } from "../order";
import { orderSummaryOf, planLine } from "./order-parts";

const order = {
  total: "$62,000.00",
  installmentMonths: null,
  cardFunding: null,
  lines: [{ name: "Collar Meses", quantity: 1, unitPriceCents: 6_000_000, edition: null }],
} as unknown as Order;

/** An order's pieces as its e-mails show them: the text part's lines, and the HTML summary. */
const textOf = (o: Order) => orderSummaryText(orderSummaryOf(o));
const htmlOf = (o: Order) =>
  renderToStaticMarkup(createElement(OrderSummary, { summary: orderSummaryOf(o) }));

describe("an order's pieces in its e-mails", () => {
  it("say the total includes IVA, in text and HTML", () => {
    expect(textOf(order)).toContain("Total: $62,000.00 MXN, IVA incluido");
    expect(htmlOf(order)).toContain("<strong>Total</strong> (IVA incluido)");
  });

  it("name the plan the buyer chose ('meses sin intereses'), and none for one payment", () => {
    expect(planLine(order)).toBeNull();
    const inSix = { ...order, installmentMonths: 6 };
    expect(textOf(inSix)).toContain("Pagado a 6 meses sin intereses");
    expect(htmlOf(inSix)).toContain("Pagado a 6 meses sin intereses");
    expect(textOf(order).join("\n")).not.toContain("meses sin intereses");
  });

  it("list the shipping apart from the pieces ('Envío' line, 'Gratis' when free), and none without it", () => {
    const express = {
      ...order,
      total: "$62,350.00",
      shippingRate: { method: "express", label: "Envío express (1 a 2 días hábiles)", cents: 35_000 },
    } as Order;
    expect(textOf(express)).toEqual([
      "- Collar Meses × 1: $60,000.00",
      "- Envío express (1 a 2 días hábiles): $350.00",
      "Total: $62,350.00 MXN, IVA incluido",
    ]);
    expect(htmlOf(express)).toMatch(/Envío express \(1 a 2 días hábiles\)<\/td><td[^>]*>\$350\.00<\/td>/);
    const free = {
      ...express,
      shippingRate: { method: "estandar", label: "Estafeta", cents: 0 },
    } as Order;
    expect(textOf(free)).toContain("- Envío: Estafeta: Gratis");
    expect(textOf(order).join("\n")).not.toContain("Envío");
  });
});
