import { describe, expect, it } from "vitest";
import { undeliveredMailTitle } from "./undelivered-mail";

describe("the notice of order e-mails that have not gone out", () => {
  it("says one in the singular, more in the plural with thousands grouped", () => {
    expect(undeliveredMailTitle(1, 7)).toBe("1 correo de un pedido no ha salido (últimos 7 días).");
    expect(undeliveredMailTitle(2, 7)).toBe("2 correos de pedidos no han salido (últimos 7 días).");
    expect(undeliveredMailTitle(1250, 7)).toBe("1,250 correos de pedidos no han salido (últimos 7 días).");
  });
});
