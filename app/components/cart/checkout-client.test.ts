import { describe, expect, it, vi } from "vitest";
import { nextLookIn, requestCheckout } from "./checkout-client";

const cart = [
  {
    product: { id: "p1", name: "Anillo", priceCents: 100, stock: 2, image: null },
    dropId: "d1",
    quantity: 2,
  },
];
const answer = (status: number, body: unknown) => async () =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
// The proof of work is its own module (tested with the server's checks); here it is a given.
const noProof = async () => null;

describe("requestCheckout", () => {
  it("sends only ids and quantities, never prices", async () => {
    const fetcher = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ url: "https://pago.example/s/1" }),
    );
    await requestCheckout(cart, fetcher as unknown as typeof fetch, noProof);
    const body = JSON.parse(String(fetcher.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({ cart: [{ product: { id: "p1" }, dropId: "d1", quantity: 2 }] });
  });

  it("names the size of a line that has one, by its id", async () => {
    const fetcher = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ url: "https://pago.example/s/1" }),
    );
    const sized = [{ ...cart[0], option: { id: "o7", name: "Talla" as const, value: "7", stock: 1 } }];
    await requestCheckout(sized as typeof cart, fetcher as unknown as typeof fetch, noProof);
    const body = JSON.parse(String(fetcher.mock.calls[0]?.[1]?.body));
    expect(body.cart).toEqual([{ product: { id: "p1" }, dropId: "d1", quantity: 2, optionId: "o7" }]);
  });

  it("sends the solved proof of work in X-Altcha", async () => {
    const fetcher = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ url: "https://p.example" }),
    );
    await requestCheckout(cart, fetcher as unknown as typeof fetch, async () => "cHJ1ZWJh");
    expect(new Headers(fetcher.mock.calls[0]?.[1]?.headers).get("x-altcha")).toBe("cHJ1ZWJh");
  });

  it("returns the payment page's url", async () => {
    const result = await requestCheckout(
      cart,
      answer(200, { url: "https://pago.example/s/1" }) as typeof fetch,
      noProof,
    );
    expect(result).toEqual({ url: "https://pago.example/s/1" });
  });

  it("shows the server's message on a non-OK answer, or the spec's default", async () => {
    expect(
      await requestCheckout(cart, answer(409, { message: "Anillo: quedan 1" }) as typeof fetch, noProof),
    ).toEqual({
      error: "Anillo: quedan 1",
    });
    expect(await requestCheckout(cart, answer(404, "<html>") as typeof fetch, noProof)).toEqual({
      error: "Error validando stock o creando pago",
    });
  });

  it("a refusal by the drop-day limits (429) shows its Spanish message", async () => {
    const message = "Demasiados intentos seguidos. Intenta de nuevo en 42 segundos.";
    expect(await requestCheckout(cart, answer(429, { message }) as typeof fetch, noProof)).toEqual({
      error: message,
    });
  });

  it("an OK answer without url, or a network failure, has its own message", async () => {
    expect(await requestCheckout(cart, answer(200, {}) as typeof fetch, noProof)).toEqual({
      error: "Error al crear sesión de pago",
    });
    const offline = async () => {
      throw new TypeError("Failed to fetch");
    };
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await requestCheckout(cart, offline as typeof fetch, noProof)).toEqual({
      error: "Error al procesar la compra.",
    });
    // Unit files share a worker's modules (vitest.config.ts): the next file gets its console back.
    quiet.mockRestore();
  });

  it("a checkout refused for its proof of work is asked once more, with a new proof, and only once", async () => {
    const refusal = () =>
      Response.json(
        { message: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo." },
        { status: 400, headers: { "X-Reto-Rechazado": "ajeno" } },
      );
    const proofs = ["uno", "dos", "tres"];
    const nextProof = async () => proofs.shift() ?? null;
    const fetcher = vi.fn(async (_url: string, _init?: RequestInit) =>
      fetcher.mock.calls.length === 1 ? refusal() : Response.json({ url: "https://p.example" }),
    );
    expect(await requestCheckout(cart, fetcher as unknown as typeof fetch, nextProof)).toEqual({
      url: "https://p.example",
    });
    const sent = fetcher.mock.calls.map((call) => new Headers(call[1]?.headers).get("x-altcha"));
    expect(sent).toEqual(["uno", "dos"]);

    const always = vi.fn(async () => refusal());
    expect(await requestCheckout(cart, always as unknown as typeof fetch, nextProof)).toEqual({
      error: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
    });
    expect(always).toHaveBeenCalledTimes(2);
    // Any other 400 (a cart the server could not read) is not sent again.
    const other = vi.fn(async () => Response.json({ message: "Tu carrito está vacío." }, { status: 400 }));
    await requestCheckout(cart, other as unknown as typeof fetch, nextProof);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it("a place in the drop's line (202) waits, telling each look, until its payment page or the pieces are gone", async () => {
    const looks = [
      { estado: "esperando", antes: 2, apartadas: false },
      { estado: "esperando", antes: 0, apartadas: true },
      { estado: "listo", url: "https://pago.example/s/9" },
    ];
    const fetcher = vi.fn(async (url: string, _init?: RequestInit) =>
      url === "/api/checkout"
        ? Response.json(
            { fila: "abcdefghjkmnpqrs", estado: "esperando", antes: 3, apartadas: false },
            { status: 202 },
          )
        : Response.json(looks.shift()),
    );
    const told: unknown[] = [];
    const result = await requestCheckout(cart, fetcher as unknown as typeof fetch, noProof, {
      onWait: (status) => told.push(status),
      lookEveryMs: 1,
    });
    expect(result).toEqual({ url: "https://pago.example/s/9" });
    expect(told.map((t) => (t as { antes: number }).antes)).toEqual([3, 2, 0]);
    expect(fetcher.mock.calls.slice(1).map((c) => c[0])).toEqual(Array(3).fill("/api/fila/abcdefghjkmnpqrs"));

    const gone = async (url: string) =>
      url === "/api/checkout"
        ? Response.json(
            { fila: "abcdefghjkmnpqrs", estado: "esperando", antes: 0, apartadas: true },
            { status: 202 },
          )
        : Response.json({ estado: "terminado", mensaje: "Se acabaron las piezas que pedías: Anillo." });
    expect(await requestCheckout(cart, gone as typeof fetch, noProof, { lookEveryMs: 1 })).toEqual({
      error: "Se acabaron las piezas que pedías: Anillo.",
    });
  });

  it("a long wait in line leaves no listener behind on the drawer's signal", async () => {
    let looks = 0;
    const fetcher = async (url: string) =>
      url === "/api/checkout"
        ? Response.json(
            { fila: "abcdefghjkmnpqrs", estado: "esperando", antes: 9, apartadas: false },
            { status: 202 },
          )
        : Response.json(
            ++looks < 200
              ? { estado: "esperando", antes: 9, apartadas: false }
              : { estado: "listo", url: "https://pago.example/s/1" },
          );
    const controller = new AbortController();
    let live = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      live++;
      add(...args);
    }) as typeof add;
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      live--;
      remove(...args);
    }) as typeof remove;
    const result = await requestCheckout(cart, fetcher as typeof fetch, noProof, {
      lookEveryMs: 1,
      signal: controller.signal,
    });
    expect(result).toEqual({ url: "https://pago.example/s/1" });
    expect(looks).toBe(200);
    expect(live).toBeLessThanOrEqual(1);
  });

  it("asked again for pieces it holds, the shopper goes back to the payment page she has", async () => {
    const again = answer(409, {
      message: "Ya tienes estas piezas apartadas.",
      url: "https://pago.example/s/1",
    });
    expect(await requestCheckout(cart, again as typeof fetch, noProof)).toEqual({
      url: "https://pago.example/s/1",
    });
  });

  it("with another size or quantity of the pieces she holds, she is told, with a link to her payment page, not sent there", async () => {
    const message = "Tienes un pago sin terminar con otra talla o cantidad de estas piezas.";
    const changed = answer(409, { message, url: "https://pago.example/s/1", pendiente: true });
    expect(await requestCheckout(cart, changed as typeof fetch, noProof)).toEqual({
      error: message,
      pendingUrl: "https://pago.example/s/1",
    });
  });
});

describe("nextLookIn", () => {
  it("looks every half second in line; during the draw every 2 s, and just after it ends", () => {
    const now = Date.parse("2026-12-01T18:00:00.000Z");
    const drawEnds = (ms: number) => ({
      estado: "sorteo" as const,
      sorteoTermina: new Date(now + ms).toISOString(),
    });
    expect(nextLookIn({ estado: "esperando", antes: 1, apartadas: false }, 500, now)).toBe(500);
    expect(nextLookIn(drawEnds(8_000), 500, now)).toBe(2_000);
    expect(nextLookIn(drawEnds(1_000), 500, now)).toBe(1_150);
    expect(nextLookIn(drawEnds(-5_000), 500, now)).toBe(50);
  });
});
