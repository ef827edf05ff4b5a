import { describe, expect, it } from "vitest";
import { joinWords, limitReason } from "./per-person-reason";

describe("why an order goes over 'Máximo N por persona'", () => {
  it("names pieces paid as before", () => {
    expect(limitReason({ dropName: "Mareas", max: 1, paid: 1, waiting: 0, keys: ["email_key"] })).toBe(
      "«Mareas» permite 1 por persona y ya había 1 pieza pagada con el mismo correo.",
    );
    expect(
      limitReason({
        dropName: "Mareas",
        max: 2,
        paid: 2,
        waiting: 0,
        keys: ["card_fingerprint", "address_key"],
      }),
    ).toBe(
      "«Mareas» permite 2 por persona y ya había 2 piezas pagadas con la misma tarjeta y la misma dirección de envío.",
    );
  });

  it("says when what she had is a voucher still unpaid, alone or beside pieces paid", () => {
    expect(limitReason({ dropName: "Mareas", max: 1, paid: 0, waiting: 1, keys: ["email_key"] })).toBe(
      "«Mareas» permite 1 por persona y con el mismo correo ya había 1 pieza apartada con una ficha de pago sin pagar.",
    );
    expect(
      limitReason({ dropName: "Mareas", max: 3, paid: 1, waiting: 2, keys: ["email_key", "address_key"] }),
    ).toBe(
      "«Mareas» permite 3 por persona y con el mismo correo y la misma dirección de envío ya había 3 piezas: 1 pagada y 2 apartadas con una ficha de pago sin pagar.",
    );
  });

  it("joins words as Spanish does", () => {
    expect(joinWords([])).toBe("");
    expect(joinWords(["a"])).toBe("a");
    expect(joinWords(["a", "b", "c"])).toBe("a, b y c");
  });
});
