import type { Cart } from "~/cart/cart";
import { shopNow } from "~/components/shop-clock";
import { PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";

export const CHECKOUT_ENDPOINT = "/api/checkout";
/** A place in a drop's line: looked at every LINE_LOOK_MS while the drawer waits. */
export const LINE_ENDPOINT = "/api/fila";
export const LINE_LOOK_MS = 500;

/** What the drawer shows while the shopper waits in a drop's line (decision 27). */
export type LineStatus =
  | { estado: "sorteo"; sorteoTermina: string }
  | { estado: "esperando"; antes: number; apartadas: boolean };

/** `pendingUrl`: the shopper's unpaid payment page, for another size or quantity of these pieces. */
export type CheckoutResult = { url: string } | { error: string; pendingUrl?: string };

export interface CheckoutOptions {
  /** Called with each look at the shopper's place while it waits. */
  onWait?: (status: LineStatus) => void;
  lookEveryMs?: number;
  /** Stops waiting (the drawer was closed): answers an empty error. */
  signal?: AbortSignal;
}

/** Waits `ms`, or until `signal` aborts; its abort listener goes with it (a long wait in line looks hundreds of times). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

function messageOf(data: unknown): string {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : "";
}

/**
 * Asks the server for a payment page (the spec's createStripeCheckout). Only ids and quantities
 * are sent: the server re-reads names, prices and stock. Maps every failure to the spec's message.
 * During a drop's opening the answer is a place in its line (202): the shopper waits here, told
 * her place on every look, until the payment page is hers or the pieces are gone.
 */
export async function requestCheckout(
  cart: Cart,
  fetcher: typeof fetch = fetch,
  proofOfWork: () => Promise<string | null> = async () =>
    (await import("~/cart/proof-of-work")).takeProofOfWork(fetcher),
  options: CheckoutOptions = {},
): Promise<CheckoutResult> {
  try {
    const body = JSON.stringify({
      cart: cart.map((l) => ({
        product: { id: l.product.id },
        dropId: l.dropId,
        quantity: l.quantity,
        ...(l.option ? { optionId: l.option.id } : {}),
      })),
    });
    // Solved in the background since the cart got its first piece (~/cart/proof-of-work).
    const send = (proof: string | null) =>
      fetcher(CHECKOUT_ENDPOINT, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(proof ? { "x-altcha": proof } : {}),
        },
        body,
      });
    let response = await send(await proofOfWork());
    // A proof the server refused (made for a cookie since replaced, or gone stale while the
    // computer slept): once more, with a new one solved for the cookie the browser has now.
    if (response.status === 400 && response.headers.has(PROOF_REFUSED_HEADER)) {
      response = await send(await proofOfWork());
    }
    const data: unknown = await response.json().catch(() => null);
    const url = (data as { url?: unknown } | null)?.url;
    // Asked again for pieces it holds: back to the payment page it already has; told first when
    // that page is for another size or quantity of them.
    if (response.status === 409 && typeof url === "string" && url !== "")
      return (data as { pendiente?: unknown }).pendiente === true
        ? { error: messageOf(data) || "Tienes un pago sin terminar.", pendingUrl: url }
        : { url };
    if (!response.ok) return { error: messageOf(data) || "Error validando stock o creando pago" };
    if (response.status === 202) return await waitInLine(data, fetcher, options);
    if (typeof url !== "string" || url === "") return { error: "Error al crear sesión de pago" };
    return { url };
  } catch (error) {
    console.error("Checkout failed", error);
    return { error: "Error al procesar la compra." };
  }
}

/**
 * When to look again: every `every` ms while in line; during the draw, every 2 seconds (nothing
 * changes before it ends) and just after it ends (the server's time, as the page knows it).
 */
export function nextLookIn(status: LineStatus, every: number, now: number = shopNow()): number {
  if (status.estado !== "sorteo") return every;
  const left = Date.parse(status.sorteoTermina) - now;
  return Math.max(50, Math.min(DRAW_LOOK_MS, left + AFTER_DRAW_MS));
}

/** Looks during the draw (a place's last look keeps it). */
const DRAW_LOOK_MS = 2_000;
/** The first look after the draw's end: the line is served the moment it ends. */
const AFTER_DRAW_MS = 150;

type LineAnswer = LineStatus | { estado: "listo"; url: string } | { estado: "terminado"; mensaje: string };

/** Looks at the place until its turn comes or it ends. */
async function waitInLine(
  first: unknown,
  fetcher: typeof fetch,
  options: CheckoutOptions,
): Promise<CheckoutResult> {
  const place = (first as { fila?: unknown } | null)?.fila;
  if (typeof place !== "string") return { error: "Error al crear sesión de pago" };
  let answer = first as LineAnswer;
  let failures = 0;
  for (;;) {
    if (answer.estado === "listo") return { url: answer.url };
    if (answer.estado === "terminado") return { error: answer.mensaje };
    options.onWait?.(answer);
    await sleep(nextLookIn(answer, options.lookEveryMs ?? LINE_LOOK_MS), options.signal);
    if (options.signal?.aborted) return { error: "" };
    try {
      const response = await fetcher(`${LINE_ENDPOINT}/${place}`, {
        headers: { accept: "application/json" },
        cache: "no-store",
      });
      const data: unknown = await response.json().catch(() => null);
      if (response.status === 404) return { error: messageOf(data) || "Error al crear sesión de pago" };
      if (!response.ok) throw new Error(String(response.status));
      answer = data as LineAnswer;
      failures = 0;
    } catch (error) {
      // A look lost on a weak signal: the place stays; give up only after a while.
      if (++failures >= 20) throw error;
    }
  }
}
