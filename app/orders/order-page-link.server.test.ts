import { describe, expect, it } from "vitest";
import { createOrderLinks } from "./cancel-link.server";
import {
  createOrderPageLinks,
  EARLIER_GENERATIONS_TOLD,
  orderPagePath,
  orderPageUrl,
  orderReturnPath,
} from "./order-page-link.server";

const SECRET = "s".repeat(32);
const links = createOrderPageLinks(SECRET);
const id = "OL-ABCD2345";

describe("'Mi pedido' links and their generations", () => {
  it("generation 0 signs as every link e-mailed before generations existed: the order id alone", () => {
    const legacy = createOrderLinks(SECRET, "enlace-mi-pedido").sign(id, null);
    expect(links.sign({ id, linkVersion: 0 })).toBe(legacy);
    expect(links.check({ id, linkVersion: 0 }, legacy)).toBe("vigente");
  });

  it("each generation signs differently; only the current one opens, earlier ones are told apart from made-up ones", () => {
    const tokens = [0, 1, 2, 3].map((linkVersion) => links.sign({ id, linkVersion }));
    expect(new Set(tokens).size).toBe(4);
    const now = { id, linkVersion: 3 };
    expect(links.check(now, tokens[3] ?? null)).toBe("vigente");
    for (const old of tokens.slice(0, 3)) expect(links.check(now, old)).toBe("anterior");
    // A generation the order has not reached yet was never handed out.
    expect(links.check({ id, linkVersion: 1 }, tokens[2] ?? null)).toBe("ninguna");
    expect(links.check(now, null)).toBe("ninguna");
    expect(links.check(now, "")).toBe("ninguna");
    expect(links.check(now, "A".repeat(43))).toBe("ninguna");
  });

  it("a token is its order's only, and the shop's only", () => {
    const token = links.sign({ id, linkVersion: 1 });
    expect(links.check({ id: "OL-ZZZZ2345", linkVersion: 1 }, token)).toBe("ninguna");
    expect(createOrderPageLinks("t".repeat(32)).check({ id, linkVersion: 1 }, token)).toBe("ninguna");
    // Another purpose's signature of the same order (a /cancel link) opens nothing either.
    expect(
      links.check({ id, linkVersion: 0 }, createOrderLinks(SECRET, "enlace-cancelar").sign(id, null)),
    ).toBe("ninguna");
  });

  it("earlier generations are told as such only so far back: older ones are just not found", () => {
    const now = { id, linkVersion: EARLIER_GENERATIONS_TOLD + 5 };
    expect(
      links.check(now, links.sign({ id, linkVersion: now.linkVersion - EARLIER_GENERATIONS_TOLD })),
    ).toBe("anterior");
    expect(links.check(now, links.sign({ id, linkVersion: 0 }))).toBe("ninguna");
  });

  it("its paths and e-mail address carry the current generation's signature", () => {
    const order = { id, linkVersion: 2 };
    const firma = links.sign(order);
    expect(orderPagePath(links, order)).toBe(`/mi-pedido/${id}?firma=${firma}`);
    expect(orderReturnPath(links, order)).toBe(`/mi-pedido/${id}/devolucion?firma=${firma}`);
    const at = (publicUrl: string | undefined, siteUrl: string | null) =>
      orderPageUrl({ links, publicUrl }, { ...order, siteUrl });
    expect(at("https://orodeluna.mx/", "http://127.0.0.1:3000")).toBe(
      `https://orodeluna.mx/mi-pedido/${id}?firma=${firma}`,
    );
    expect(at(undefined, "http://127.0.0.1:3000/checkout")).toBe(
      `http://127.0.0.1:3000/mi-pedido/${id}?firma=${firma}`,
    );
    expect(at(undefined, null)).toBeNull();
  });
});
