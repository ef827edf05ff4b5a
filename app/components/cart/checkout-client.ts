import type { Cart } from "~/cart/cart";
import { PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";

export const CHECKOUT_ENDPOINT = "/api/checkout";

export type CheckoutResult = { url: string } | { error: string };

/**
 * Asks the server for a payment page (the spec's createStripeCheckout). Only ids and quantities
 * are sent: the server re-reads names, prices and stock. Maps every failure to the spec's message.
 */
export async function requestCheckout(
  cart: Cart,
  fetcher: typeof fetch = fetch,
  proofOfWork: () => Promise<string | null> = async () =>
    (await import("~/cart/proof-of-work")).takeProofOfWork(fetcher),
): Promise<CheckoutResult> {
  try {
    const body = JSON.stringify({
      cart: cart.map((l) => ({ product: { id: l.product.id }, dropId: l.dropId, quantity: l.quantity })),
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
    const message =
      typeof (data as { message?: unknown })?.message === "string"
        ? (data as { message: string }).message
        : "";
    if (!response.ok) return { error: message || "Error validando stock o creando pago" };
    const url = (data as { url?: unknown })?.url;
    if (typeof url !== "string" || url === "") return { error: "Error al crear sesión de pago" };
    return { url };
  } catch (error) {
    console.error("Checkout failed", error);
    return { error: "Error al procesar la compra." };
  }
}
