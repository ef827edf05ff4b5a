import { describe, expect, it } from "vitest";
import { createOrderPageLinks } from "~/orders/order-page-link.server";
import { requireCurrentLink, signedOrderRef } from "./signed-order.server";

const links = createOrderPageLinks("s".repeat(32));
const id = "OL-ABCD2345";

/** What a page's check throws: its status and its body, or "ok". */
async function outcome(run: () => unknown): Promise<string | number> {
  try {
    run();
    return "ok";
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${await thrown.text()}`;
    throw thrown;
  }
}

describe("a buyer's signed order address", () => {
  it("a malformed number or no signature is not found before anything is read", async () => {
    const ref = (url: string, orderId?: string) => () => signedOrderRef(new Request(url), { orderId });
    expect(await outcome(ref(`https://t.mx/mi-pedido/${id}`, id))).toBe("404 Pedido no encontrado");
    expect(await outcome(ref("https://t.mx/mi-pedido/x?firma=abc", "x"))).toBe("404 Pedido no encontrado");
    expect(signedOrderRef(new Request(`https://t.mx/mi-pedido/${id}?firma=abc`), { orderId: id })).toEqual({
      orderId: id,
      token: "abc",
    });
  });

  it("checked against the order's current generation: current opens, renewed since is gone (410), else not found", async () => {
    const order = { id, linkVersion: 2, customerName: "Ana" };
    const check =
      (token: string, read: typeof order | null = order) =>
      () =>
        requireCurrentLink(links, { orderId: id, token }, read);
    expect(requireCurrentLink(links, { orderId: id, token: links.sign(order) }, order)).toBe(order);
    expect(await outcome(check(links.sign({ id, linkVersion: 1 })))).toBe("410 Este enlace ya no es válido");
    expect(await outcome(check(links.sign({ id, linkVersion: 0 })))).toBe("410 Este enlace ya no es válido");
    expect(await outcome(check("A".repeat(43)))).toBe("404 Pedido no encontrado");
    expect(await outcome(check(links.sign(order), null))).toBe("404 Pedido no encontrado");
    // Another order read under this number's signature: never shown.
    expect(
      await outcome(() =>
        requireCurrentLink(links, { orderId: "OL-ZZZZ2345", token: links.sign(order) }, order),
      ),
    ).toBe("404 Pedido no encontrado");
  });
});
