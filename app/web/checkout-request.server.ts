import { z } from "zod";
import { MAX_ORDER_LINES } from "~/config/ceilings";
import { addressBucket } from "~/lib/address-bucket";
import { isId } from "~/lib/ids";
import { mergeLines } from "~/orders/cart-read.server";
import { type CheckoutResult, startCheckout } from "~/orders/checkout.server";
import type { CheckoutLine } from "~/orders/holds.server";
import type { LineView } from "~/orders/line.server";
import { inLottery, lotteryEndsAt } from "~/orders/opening";
import { lookAtPlace, paymentUrls, serveAtDraw } from "~/web/line-request.server";
import type { Services } from "~/web/services";

/*
 * POST /api/checkout, the drawer's 'Pagar': what it takes and what it answers, apart from how the
 * request arrived. On drop day hundreds of these come in the same second, so the server answers
 * them straight from Express (server/checkout-endpoint.ts) rather than through React Router's
 * request handling, which cost as much again as the checkout itself; the route module
 * (routes/api.checkout.ts) answers the same way where React Router gets the request.
 */

/**
 * What the drawer sends: ids (checked for their shape before any query) and whole quantities.
 * Anything else in the body is ignored; how many pieces one order may have is the domain's rule
 * (config/ceilings.ts), said in its own words.
 */
const checkoutRequest = z.object({
  cart: z
    .array(
      z.object({
        product: z.object({ id: z.string().refine(isId) }),
        dropId: z.string().refine(isId),
        quantity: z.int().min(1),
        /** The size chosen, for a product with sizes (decision 34). */
        optionId: z.string().refine(isId).nullish(),
      }),
    )
    .min(1)
    .max(MAX_ORDER_LINES),
});

const STATUS: Record<Exclude<CheckoutResult, { ok: true }>["reason"], number> = {
  carrito_vacio: 400,
  no_encontrado: 409,
  coleccion_cerrada: 409,
  sin_stock: 409,
  sin_opcion: 400,
  limite_piezas: 400,
  limite_total: 400,
  limite_coleccion: 400,
  pago_en_curso: 409,
  pago_no_disponible: 502,
  ya_apartada: 409,
  limite_conexion: 429,
  sin_navegador: 400,
};

export interface CheckoutAnswer {
  status: number;
  /**
   * A payment page; a place in the drop's line (202: look at it at /api/fila/:id); or why not
   * (with the payment page the browser already has, when it asked again for pieces it holds).
   */
  body: { url: string } | ({ fila: string } & LineView) | { message: string; url?: string; pendiente?: true };
  /**
   * For the shop's counters only, never sent: why it was refused (the checkout's reason code, or
   * `solicitud` for a request that is no cart) and the drops its cart named.
   */
  reason?: string;
  dropIds?: readonly string[];
  /** How it counts, when its status does not say (a place served at once counts as one in line). */
  outcome?: "queued";
}

/** What a checkout request says, as it arrived. */
export interface CheckoutRequest {
  contentType: string | null;
  /** Whether the request comes from the shop's own pages (web/origin.server.ts isSameOrigin). */
  sameOrigin: boolean;
  /** The body as sent; null when it could not be read. */
  body: string | null;
}

/**
 * The cart a checkout request asks for, or the answer to a request that asks for nothing valid.
 * Only the shop's own pages may start a checkout: a JSON body (a cross-site form cannot send one
 * without the browser asking first) and, when the browser says where it comes from, our origin.
 */
export function readCheckoutRequest(
  request: CheckoutRequest,
): { ok: true; lines: CheckoutLine[] } | { ok: false; answer: CheckoutAnswer } {
  if (!(request.contentType ?? "").startsWith("application/json")) {
    return {
      ok: false,
      answer: { status: 415, body: { message: "La solicitud debe ser JSON." }, reason: "solicitud" },
    };
  }
  if (!request.sameOrigin)
    return {
      ok: false,
      answer: { status: 403, body: { message: "Solicitud no permitida." }, reason: "solicitud" },
    };
  let json: unknown = null;
  try {
    json = request.body === null ? null : JSON.parse(request.body);
  } catch {
    json = null;
  }
  const parsed = checkoutRequest.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      answer: {
        status: 400,
        body: { message: "El carrito no es válido. Revisa las piezas e intenta de nuevo." },
        reason: "solicitud",
      },
    };
  }
  return {
    ok: true,
    // One line per piece (product and size): a cart naming the same piece twice, 1 + 1, is the
    // 2 it asks for everywhere (in line, each line alone would seem to fit a last piece).
    lines: mergeLines(
      parsed.data.cart.map((l) => ({
        productId: l.product.id,
        dropId: l.dropId,
        quantity: l.quantity,
        optionId: l.optionId ?? null,
      })),
    ),
  };
}

/** The answer to a cart that cannot be paid for. */
export function refusalAnswer(
  refusal: Pick<Exclude<CheckoutResult, { ok: true }>, "reason" | "message"> & {
    url?: string | null;
    changed?: boolean;
  },
  lines: readonly CheckoutLine[] = [],
): CheckoutAnswer {
  return {
    status: STATUS[refusal.reason],
    // `pendiente`: the payment page it already has is for another cart; the drawer says so and links it.
    body: refusal.url
      ? {
          message: refusal.message,
          url: refusal.url,
          ...(refusal.changed ? { pendiente: true as const } : {}),
        }
      : { message: refusal.message },
    reason: refusal.reason,
    // The shop's counters label a drop only once its pieces were read: a refusal before (a cart of
    // made-up drops, too many pieces) would let a script fill the labels with invented ids.
    dropIds: READ_DROP_REASONS.has(refusal.reason) ? dropsOf(lines) : [],
  };
}

/** Refusals given after the cart's drops were read from the database: their ids are real drops. */
const READ_DROP_REASONS = new Set<string>([
  "coleccion_cerrada",
  "sin_stock",
  "sin_opcion",
  "limite_coleccion",
  "ya_apartada",
  "pago_en_curso",
  "pago_no_disponible",
  "limite_conexion",
]);

/** The drops a cart names, once each. */
export function dropsOf(lines: readonly CheckoutLine[]): string[] {
  return [...new Set(lines.map((l) => l.dropId))];
}

export async function answerCheckout(
  services: Services,
  request: CheckoutRequest & {
    /** The browser's id (cookie `navegador`), or null. */
    browser: string | null;
    /** The shop's own origin, for the payment page's return addresses. */
    origin: string;
    /** The client's address (the opening counts pieces per address bucket). */
    address: string;
  },
): Promise<CheckoutAnswer> {
  const read = readCheckoutRequest(request);
  if (!read.ok) return read.answer;
  const { database, payments, config } = services;
  const { origin, browser } = request;
  const result = await startCheckout(
    database.db,
    payments,
    read.lines,
    // Both signed for this browser: only it sees the order's details, or gives the pieces back.
    paymentUrls(services, origin, browser),
    browser,
    config.orderCeilings,
    {
      bucket: addressBucket(request.address),
      origin,
      installments: services.settings.current().installments,
      vouchers: services.settings.current().vouchers,
      shippingRates: services.settings.current().shippingRates,
    },
  );
  const dropIds = dropsOf(read.lines);
  if (!result.ok) return refusalAnswer(result, read.lines);
  if ("url" in result) return { status: 200, body: { url: result.url }, dropIds };
  // A place in the draw: nothing to look at until it ends (the line is served then).
  if (inLottery(result.drop, new Date())) {
    const endsAt = lotteryEndsAt(result.drop);
    serveAtDraw(services, result.drop.id, endsAt);
    return {
      status: 202,
      body: { fila: result.queued, estado: "sorteo", sorteoTermina: endsAt.toISOString() },
      dropIds,
    };
  }
  // A place in line: its turn may have come already (the first look serves it, or tells the place
  // to look again while its turn is being taken).
  const view = await lookAtPlace(services, result.queued, browser);
  if (view?.estado === "listo") return { status: 200, body: { url: view.url }, dropIds, outcome: "queued" };
  if (view?.estado === "terminado") {
    return { status: 409, body: { message: view.mensaje }, reason: "agotado", dropIds };
  }
  return {
    status: 202,
    body: { fila: result.queued, ...(view ?? { estado: "esperando", antes: 0, apartadas: false }) },
    dropIds,
  };
}
