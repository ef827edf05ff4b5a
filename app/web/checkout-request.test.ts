import { describe, expect, it } from "vitest";
import { newId } from "~/lib/ids";
import { readCheckoutRequest } from "./checkout-request.server";

const read = (cart: unknown) =>
  readCheckoutRequest({ contentType: "application/json", sameOrigin: true, body: JSON.stringify({ cart }) });

describe("the checkout's request", () => {
  it("names each piece once: the same product and size twice is one line with both quantities", () => {
    const [drop, ring, size7, size8] = [newId(), newId(), newId(), newId()];
    const line = (optionId: string | null, quantity = 1) => ({
      product: { id: ring },
      dropId: drop,
      quantity,
      optionId,
    });
    const result = read([line(size7), line(size8), line(size7, 2)]);
    expect(result).toEqual({
      ok: true,
      lines: [
        { productId: ring, dropId: drop, quantity: 3, optionId: size7 },
        { productId: ring, dropId: drop, quantity: 1, optionId: size8 },
      ],
    });
  });

  it("refuses what is no cart with a Spanish 400", () => {
    const result = read([{ product: { id: "x" }, dropId: "y", quantity: 0 }]);
    expect(result).toMatchObject({
      ok: false,
      answer: { status: 400, body: { message: expect.stringMatching(/carrito/) } },
    });
  });
});
