import type { IncomingMessage } from "node:http";
import { isId } from "~/lib/ids";
import { recordCheckout } from "~/observability/metrics.server";
import type { CheckoutAnswer } from "~/web/checkout-request.server";
import { keptBody } from "./request-handler";

/*
 * Checkout answers counted for the shop's metrics (app/observability), wherever they are written:
 * the front door (checkout-fast-path.ts), the Express endpoint (checkout-endpoint.ts) and the
 * request limits and proof of work before it (request-limits.ts).
 */

/** Counts a checkout's answer: 200 held its pieces, 202 sent it to the line, anything else refused. */
export function countCheckoutAnswer(answer: CheckoutAnswer): void {
  const outcome =
    answer.outcome ?? (answer.status === 200 ? "held" : answer.status === 202 ? "queued" : "refused");
  recordCheckout(answer.dropIds ?? [], outcome, answer.reason ?? "otro");
}

/**
 * Counts a checkout refused before its cart was read (`limite`, `verificacion`): under the drops
 * its body names when the front door already read it and the shop already counted them as real
 * drops (a checkout it answered after reading them), under no drop otherwise.
 */
export function countRefusedCheckout(req: IncomingMessage, reason: string): void {
  recordCheckout(keptDrops(req), "refused", reason, false);
}

function keptDrops(req: IncomingMessage): string[] {
  const body = keptBody(req);
  if (body === undefined) return [];
  try {
    const cart = (JSON.parse(body.toString("utf8")) as { cart?: unknown })?.cart;
    if (!Array.isArray(cart)) return [];
    const drops = new Set<string>();
    for (const line of cart.slice(0, 50)) {
      const dropId = (line as { dropId?: unknown } | null)?.dropId;
      if (typeof dropId === "string" && isId(dropId)) drops.add(dropId);
    }
    return [...drops];
  } catch {
    return [];
  }
}
