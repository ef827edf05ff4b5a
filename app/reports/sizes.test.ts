import { describe, expect, it } from "vitest";
import { sellThroughText } from "./report";
import { productSizes, type SizedLine, sizesText } from "./sizes";

const line = (optionId: string | null, optionValue: string | null, over: Partial<SizedLine> = {}) => ({
  optionName: optionValue === null ? null : ("Talla" as const),
  optionId,
  optionValue,
  unitPriceCents: 100_000,
  quantity: 1,
  missing: 0,
  restocked: 0,
  refund: false,
  ...over,
});

describe("a product's sizes in a report", () => {
  const option = {
    name: "Talla" as const,
    values: [
      { id: "v7", value: "7", stock: 2, held: 1 },
      { id: "v8", value: "8", stock: 0, held: 0 },
    ],
  };

  it("counts each value's sales (refunds apart) and offers what is left, held and taken", () => {
    const sizes = productSizes(option, [
      line("v7", "7", { quantity: 2 }),
      line("v7", "7", { refund: true, missing: 1 }),
      line("v8", "8"),
    ]);
    expect(sizes).toEqual({
      name: "Talla",
      sizes: [
        { value: "7", pieces: 2, netCents: 200_000, stock: 2, offered: 5, kept: 2 },
        { value: "8", pieces: 1, netCents: 100_000, stock: 0, offered: 1, kept: 1 },
      ],
    });
    expect(sizes && sizesText(sizes)).toBe("Talla 7: 2 vendidas · quedan 2; Talla 8: 1 vendida · quedan 0");
  });

  it("a piece returned and put back on the shelf is offered once: in the stock, not again as its sale's", () => {
    const sizes = productSizes(option, [line("v7", "7", { quantity: 2, restocked: 1 })]);
    // Size 7: 2 on the shelf (one of them the returned piece) + 1 held + 1 kept by its buyer.
    expect(sizes?.sizes[0]).toMatchObject({ value: "7", pieces: 2, offered: 4, kept: 1 });
    // Sold, returned to the shelf and sold again: one piece, sold once for the sell-through.
    const resold = productSizes({ ...option, values: [{ id: "v7", value: "7", stock: 0, held: 0 }] }, [
      line("v7", "7", { restocked: 1 }),
      line("v7", "7"),
    ]);
    expect(resold?.sizes[0]).toMatchObject({ pieces: 2, offered: 1, kept: 1 });
    expect(sellThroughText(resold?.sizes[0]?.kept ?? 0, resold?.sizes[0]?.offered ?? null)).toBe("100 %");
  });

  it("a value removed and written again counts its old sales; one removed for good comes last, in size order", () => {
    const sizes = productSizes(option, [line("old7", "7"), line("old10", "10"), line("old6.5", "6.5")]);
    expect(sizes?.sizes.map((s) => [s.value, s.pieces, s.stock])).toEqual([
      ["7", 1, 2],
      ["8", 0, 0],
      ["6.5", 1, null],
      ["10", 1, null],
    ]);
  });

  it("without sizes, or where the view reads none, from the lines alone", () => {
    expect(productSizes(null, [line(null, null)])).toBeNull();
    expect(productSizes(null, [line("v8", "8"), line("v7", "7")])).toEqual({
      name: "Talla",
      sizes: [
        { value: "7", pieces: 1, netCents: 100_000, stock: null, offered: null, kept: 1 },
        { value: "8", pieces: 1, netCents: 100_000, stock: null, offered: null, kept: 1 },
      ],
    });
    expect(
      sizesText({
        name: "Largo",
        sizes: [{ value: "45 cm", pieces: 1, netCents: 0, stock: null, offered: null, kept: 1 }],
      }),
    ).toBe("Largo 45 cm: 1 vendida");
  });
});
