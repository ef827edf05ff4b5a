import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { atDropLimit, canIncrease, cartLineKey, lineName, lineTotalCents } from "~/cart/cart";
import {
  type CartChange,
  type CurrentProduct,
  cartChangeMessage,
  reconcileCartWithChanges,
} from "~/cart/reconcile";
import { useShopSeconds } from "~/components/shop-clock";
import { formatMXN } from "~/lib/money";
import type { InstallmentsOffer } from "~/settings/installments";
import { type ShippingOffer, shippingLine } from "~/settings/shipping-rates";
import { useScrollLock } from "../scroll-lock";
import { useCart } from "./cart-context";
import { type LineStatus, requestCheckout } from "./checkout-client";

const LEGAL_LINKS = [
  { to: "/terminos-y-condiciones", label: "Términos y condiciones" },
  { to: "/aviso-de-privacidad", label: "Aviso de privacidad" },
  { to: "/envios", label: "Envíos" },
  { to: "/cambios-y-devoluciones", label: "Cambios y devoluciones" },
];

/**
 * The cart drawer: a modal <dialog> sliding in from the right over a dimmed backdrop. The dialog
 * element traps focus, closes on Escape and returns focus to the cart button by itself.
 * `shipping`: the shop's shipping policy in a sentence (Configuración), said under the subtotal;
 * `installments`: 'meses sin intereses' as the owner offers them, said when the subtotal qualifies;
 * `rates`: standard shipping, said before 'Pagar' with what is missing for free shipping.
 */
export function CartDrawer({
  shipping,
  installments,
  rates,
}: {
  shipping: string | null;
  installments: InstallmentsOffer | null;
  rates: ShippingOffer | null;
}) {
  const { cart, subtotalCents, remove, increase, decrease, replace, showCart, setShowCart } = useCart();
  const dialog = useRef<HTMLDialogElement>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The unpaid payment page an error names (another size or quantity of the same pieces). */
  const [pendingUrl, setPendingUrl] = useState<string | null>(null);
  // A place in a drop's line while the opening's checkouts wait their turn (decision 27).
  const [line, setLine] = useState<LineStatus | null>(null);
  const waiting = useRef<AbortController | null>(null);
  // What the revalidation removed or changed: kept until the shopper dismisses it or closes the
  // drawer, even after the cart it describes has changed again.
  const [changes, setChanges] = useState<CartChange[]>([]);
  useScrollLock(showCart);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (showCart && !el.open) el.showModal();
    if (!showCart && el.open) el.close();
    if (!showCart) {
      setChanges([]);
      setError(null);
      setPendingUrl(null);
    }
  }, [showCart]);

  // A refusal speaks of the cart it was given: once the cart changes it no longer applies.
  const cartKey = cart.map((l) => `${l.product.id}:${l.option?.id ?? ""}:${l.quantity}`).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: cartKey is the trigger, not read
  useEffect(() => {
    setError(null);
    setPendingUrl(null);
  }, [cartKey]);

  // While 'Pagar' is under way or the shopper waits in line, the cart is the one being paid for:
  // its lines cannot change (the place in line keeps the cart it was taken with).
  const locked = submitting || line !== null;

  // Opening the drawer brings prices and stock up to date with the shop.
  const ids = [...new Set(cart.map((l) => l.product.id))].join(",");
  useEffect(() => {
    if (!showCart || ids === "") return;
    const controller = new AbortController();
    const query = new URLSearchParams(ids.split(",").map((id) => ["id", id]));
    fetch(`/api/cart?${query}`, { signal: controller.signal })
      .then((r) => (r.ok ? r.json() : null))
      .then((data: { products: CurrentProduct[] } | null) => {
        if (!data) return;
        const current = new Map(data.products.map((p) => [p.id, p]));
        let found: CartChange[] = [];
        replace((c) => {
          const next = reconcileCartWithChanges(c, current);
          found = next.changes;
          return JSON.stringify(next.cart) === JSON.stringify(c) ? c : next.cart;
        });
        if (found.length > 0) setChanges((seen) => [...seen, ...found]);
      })
      .catch(() => {});
    return () => controller.abort();
  }, [showCart, ids, replace]);

  // Coming back from the payment page with the browser's Back button restores this page as it
  // was: 'Pagar' must be usable again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setSubmitting(false);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  // Closing the drawer stops looking at the place (it is given up when nobody looks for a while).
  useEffect(() => {
    if (!showCart) waiting.current?.abort();
  }, [showCart]);

  async function pay() {
    setSubmitting(true);
    setError(null);
    waiting.current = new AbortController();
    const result = await requestCheckout(cart, undefined, undefined, {
      onWait: setLine,
      signal: waiting.current.signal,
    });
    if ("url" in result) {
      // Stays 'Redirigiendo...' until the payment page loads: a second tap cannot hold twice.
      setLine(null);
      window.location.assign(result.url);
      return;
    }
    setLine(null);
    setSubmitting(false);
    setError(result.error || null);
    setPendingUrl(result.pendingUrl ?? null);
  }

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click closes on the backdrop; the keyboard closes with Escape, built into <dialog>
    <dialog
      ref={dialog}
      aria-labelledby="cart-title"
      className="cart-drawer"
      onClose={() => setShowCart(false)}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) setShowCart(false);
      }}
    >
      <div className="flex h-full flex-col bg-cream">
        <div className="flex items-center justify-between border-b border-sand px-5 py-4">
          <h2 id="cart-title" className="font-serif text-xl">
            Carrito de compras
          </h2>
          <button
            type="button"
            onClick={() => setShowCart(false)}
            className="-mr-2 grid size-11 place-items-center rounded-full text-2xl leading-none hover:bg-sand"
            aria-label="Cerrar carrito"
          >
            ×
          </button>
        </div>

        {changes.length > 0 && (
          <div
            role="status"
            className="mx-5 mt-4 rounded bg-sand px-3 py-2 text-sm"
            data-testid="cart-notice"
          >
            <div className="flex items-start justify-between gap-2">
              <p className="font-medium">
                Actualizamos tu carrito con la disponibilidad y los precios de este momento:
              </p>
              <button
                type="button"
                onClick={() => setChanges([])}
                className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-lg leading-none hover:bg-cream"
                aria-label="Cerrar aviso"
              >
                ×
              </button>
            </div>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {changes.map((change, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows or empties; a position names one message
                <li key={i}>{cartChangeMessage(change)}</li>
              ))}
            </ul>
          </div>
        )}

        {cart.length === 0 ? (
          <p className="px-5 py-10 text-center text-ink/70">Tu carrito está vacío.</p>
        ) : (
          <ul className="flex-1 divide-y divide-sand overflow-y-auto px-5">
            {cart.map((line) => {
              const key = cartLineKey(line);
              const name = lineName(line);
              return (
                <li key={key} className="grid grid-cols-[4rem_1fr] gap-x-3 gap-y-2 py-4" aria-label={name}>
                  {line.product.image ? (
                    <img
                      src={line.product.image}
                      alt=""
                      width={64}
                      height={64}
                      className="size-16 shrink-0 rounded object-cover"
                    />
                  ) : (
                    <div className="size-16 shrink-0 rounded bg-sand" />
                  )}
                  <div className="min-w-0">
                    <p className="font-medium">{line.product.name}</p>
                    {line.option && (
                      <p className="text-sm" data-testid="line-option">
                        {line.option.name} {line.option.value}
                      </p>
                    )}
                    <p className="text-sm text-ink/70" data-testid="line-total">
                      {formatMXN(line.product.priceCents)} x {line.quantity} ={" "}
                      {formatMXN(lineTotalCents(line))}
                    </p>
                    {atDropLimit(cart, line) && (
                      <p className="text-sm text-ink/70">
                        Máximo {line.maxPerPerson} por persona en su colección
                      </p>
                    )}
                  </div>
                  {/* Every control is at least 44 × 44 px: thumbs, not cursors, use them. */}
                  <div className="col-span-2 flex items-center gap-2">
                    <button
                      type="button"
                      className="grid size-11 place-items-center rounded border border-sand text-lg disabled:opacity-40"
                      onClick={() => decrease(key)}
                      disabled={locked}
                      aria-label={`Quitar uno de ${name}`}
                    >
                      −
                    </button>
                    <span className="w-8 text-center">
                      <span className="sr-only">Cantidad: </span>
                      {line.quantity}
                    </span>
                    <button
                      type="button"
                      className="grid size-11 place-items-center rounded border border-sand text-lg disabled:opacity-40"
                      onClick={() => increase(key)}
                      disabled={locked || !canIncrease(cart, line)}
                      aria-label={`Agregar uno de ${name}`}
                    >
                      +
                    </button>
                    <button
                      type="button"
                      className="ml-auto min-h-11 min-w-11 px-3 text-sm underline disabled:opacity-40"
                      onClick={() => remove(key)}
                      disabled={locked}
                      aria-label={`Eliminar ${name} del carrito`}
                    >
                      Eliminar
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}

        {cart.length > 0 && (
          <div className="border-t border-sand px-5 py-4">
            {error && (
              <p role="alert" className="mb-3 rounded bg-red-50 px-3 py-2 text-sm text-red-800">
                {error}
                {pendingUrl && (
                  <>
                    {" "}
                    <a href={pendingUrl} className="font-medium underline">
                      Ir a mi pago pendiente
                    </a>
                  </>
                )}
              </p>
            )}
            {line && <LinePlace status={line} />}
            {/* Reads 'Subtotal: $12,500.00': the label, then the amount as every price is written. */}
            <p className="flex items-baseline justify-between gap-3 font-medium">
              <span>Subtotal:</span>{" "}
              <span data-testid="subtotal" className="tabular-nums">
                {formatMXN(subtotalCents)}
              </span>
            </p>
            {rates ? (
              <ShippingLines rates={rates} subtotalCents={subtotalCents} />
            ) : (
              <p className="text-right text-xs text-ink/70" data-testid="vat">
                IVA incluido
              </p>
            )}
            {installments && subtotalCents >= installments.minCents && (
              <p className="mt-1 text-sm text-gold-700" data-testid="installments">
                Hasta {installments.months} meses sin intereses con tarjeta de crédito
              </p>
            )}
            {shipping && (
              <p className="mt-1 text-sm text-ink/70" data-testid="shipping-policy">
                {shipping}
              </p>
            )}
            <button
              type="button"
              onClick={pay}
              disabled={submitting}
              className="mt-4 w-full rounded-full bg-ink py-3 font-medium text-cream disabled:opacity-60"
            >
              {line ? "En la fila..." : submitting ? "Redirigiendo..." : "Pagar"}
            </button>
            <p className="mt-3 text-center text-xs text-ink/70">
              Al pagar aceptas los Términos y condiciones y el Aviso de privacidad.
            </p>
            <ul className="mt-1 grid grid-cols-2 text-center text-xs">
              {LEGAL_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="flex min-h-11 items-center justify-center px-1 underline"
                    onClick={() => setShowCart(false)}
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </dialog>
  );
}

/**
 * Standard shipping before 'Pagar' (decision 43): its price or 'Gratis', what is missing for free
 * shipping, and the total with it ('IVA incluido'). Express is offered on the payment page.
 */
function ShippingLines({ rates, subtotalCents }: { rates: ShippingOffer; subtotalCents: number }) {
  const line = shippingLine(rates, subtotalCents);
  return (
    <>
      <p className="mt-1 flex items-baseline justify-between gap-3 text-sm" data-testid="shipping-line">
        <span>{rates.text}:</span>{" "}
        <span className="tabular-nums">{line.cents === 0 ? "Gratis" : formatMXN(line.cents)}</span>
      </p>
      {line.missingCents !== null && (
        <p className="mt-1 text-sm text-gold-700" data-testid="free-shipping">
          Te faltan {formatMXN(line.missingCents)} para envío gratis
        </p>
      )}
      <p className="mt-2 flex items-baseline justify-between gap-3 border-t border-sand pt-2 font-medium">
        <span>Total:</span>{" "}
        <span data-testid="cart-total" className="tabular-nums">
          {formatMXN(subtotalCents + line.cents)}
        </span>
      </p>
      <p className="text-right text-xs text-ink/70" data-testid="vat">
        IVA incluido
      </p>
    </>
  );
}

/** The shopper's place in a drop's line, said in words; read out by screen readers as it changes. */
function LinePlace({ status }: { status: LineStatus }) {
  // The server's clock, measured here too (the draw ends on the server's time): a page without a
  // countdown of its own (/colecciones, /nosotros) never asked it, and the phone's may be minutes off.
  const [openedAt] = useState(() => new Date().toISOString());
  const now = useShopSeconds(openedAt);
  let text: string;
  let detail: string | null = null;
  // The seconds tick outside the live region: read out, they would be announced every second.
  let ticking: string | null = null;
  if (status.estado === "sorteo") {
    const seconds = Math.max(0, Math.ceil((Date.parse(status.sorteoTermina) - now) / 1000));
    text = "Estás en la fila de la apertura.";
    detail = "Quienes llegan en los primeros segundos entran a un sorteo. Llegar antes no da ventaja.";
    ticking = `El orden se decide ${seconds > 0 ? `en ${seconds} ${seconds === 1 ? "segundo" : "segundos"}` : "ahora"}.`;
  } else {
    text =
      status.antes === 0
        ? "Eres la siguiente persona en la fila."
        : `Hay ${status.antes} ${status.antes === 1 ? "persona" : "personas"} antes que tú.`;
    if (status.apartadas) {
      detail =
        "Las piezas que quieres están apartadas por otras personas. Si alguna se libera, será para quien sigue en la fila.";
    }
  }
  return (
    <div className="mb-3 rounded bg-sand px-3 py-2 text-sm">
      <div role="status">
        <p className="font-medium">{text}</p>
        {detail && <p className="mt-1">{detail}</p>}
      </div>
      {ticking && (
        <p className="mt-1" aria-hidden="true">
          {ticking}
        </p>
      )}
      <p className="mt-1 text-ink/70">No cierres esta ventana: te llevamos al pago cuando sea tu turno.</p>
    </div>
  );
}
