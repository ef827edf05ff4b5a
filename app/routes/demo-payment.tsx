import { useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { checkedValue, useChoicesBeforeHydration } from "~/components/hydration";
import { OrderLines } from "~/components/order-lines";
import { RouteError } from "~/components/route-error";
import { ShippingChoiceFieldset } from "~/components/shipping-choice";
import { formatMXN } from "~/lib/money";
import { BUYER_FIELDS, buyerErrors, readBuyerForm } from "~/orders/buyer-input";
import { cancelPath } from "~/orders/cancel-link.server";
import type { Charged } from "~/orders/charged";
import { voucherView } from "~/orders/emails/voucher";
import { isCheckoutOf, releaseHold } from "~/orders/holds.server";
import { isOrderId } from "~/orders/ids";
import { getOrder } from "~/orders/queries.server";
import { settlePayment } from "~/orders/settle-payment.server";
import { successPath } from "~/orders/success-link.server";
import { recordVoucher } from "~/orders/voucher-limit.server";
import { dropsOfOrder, vouchersForOrder } from "~/orders/voucher-offer.server";
import {
  DEMO_PAYMENT_ROUTE,
  demoShippingChoice,
  demoShippingOptions,
  demoVoucher,
} from "~/payments/demo-payments.server";
import { INSTALLMENT_MONTHS, installmentsFor } from "~/settings/installments";
import type { ShopSettings } from "~/settings/settings";
import { browserIdContext } from "~/web/client-address";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/demo-payment";

export const meta = () => [{ title: "Pago de demostración" }, { name: "robots", content: "noindex" }];

function demoServices(context: Route.LoaderArgs["context"]) {
  const services = context.get(servicesContext);
  // Only when the shop runs on the demo provider does this page exist.
  if (services.payments.name !== "demo") throw new Response("No encontrado", { status: 404 });
  return services;
}

/**
 * 'Meses sin intereses' the demo page offers for an order, as a card's page would once a Mexican
 * credit card is typed: every plan up to the owner's longest, when the total qualifies.
 */
function plansFor(settings: ShopSettings, totalCents: number): number[] {
  const longest = installmentsFor(settings.installments, totalCents);
  return longest === null ? [] : INSTALLMENT_MONTHS.filter((months) => months <= longest);
}

/** What the demo page charges: the order's pieces and the shipping chosen, in its currency. */
function demoCharge(
  order: { piecesCents: number; currency: string },
  shippingRate: { cents: number } | null,
): Charged {
  return { amountCents: order.piecesCents + (shippingRate?.cents ?? 0), currency: order.currency };
}

/** OXXO and SPEI as the provider's page would offer them for this order now (decision 42). */
async function offerFor(
  services: ReturnType<typeof demoServices>,
  order: { id: string; totalCents: number },
) {
  const { database, settings } = services;
  return vouchersForOrder(
    database.db,
    settings.current().vouchers,
    { totalCents: order.totalCents, dropIds: await dropsOfOrder(database.db, order.id) },
    new Date(),
  );
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = demoServices(context);
  const { database, settings } = services;
  if (!isOrderId(params.orderId)) throw new Response("Pedido no encontrado", { status: 404 });
  // A hold whose time is up is released here and now, even if the sweeper has not run yet.
  await releaseHold(database.db, params.orderId, new Date(), { onlyIfExpired: true });
  const order = await getOrder(database.db, params.orderId);
  if (!order) throw new Response("Pedido no encontrado", { status: 404 });
  if (order.status !== "esperando_pago" && order.status !== "expirado") throw redirect("/success");
  const waiting = order.status === "esperando_pago";
  const offer = waiting && !order.voucher ? await offerFor(services, order) : null;
  return {
    id: order.id,
    waiting,
    // A voucher given here, waiting for its (demo) payment: the buttons that play the store's part.
    voucher: voucherView(order),
    oxxo: offer?.oxxo ?? false,
    spei: offer?.spei ?? false,
    total: order.total,
    lines: order.lines.map((l) => ({ ...l, lineTotal: formatMXN(l.unitPriceCents * l.quantity) })),
    plans: plansFor(settings.current(), order.totalCents),
    totalCents: order.totalCents,
    shipping: demoShippingOptions(settings.current().shippingRates, order.piecesCents).map((o) => ({
      method: o.method,
      text: o.text,
      price: o.cents === 0 ? "Gratis" : formatMXN(o.cents),
      total: formatMXN(order.piecesCents + o.cents),
      totalCents: order.piecesCents + o.cents,
    })),
  };
}

/** The shipping the buyer chose (decision 43): 'estandar' or 'express'. */
const SHIPPING_FIELD = "envio";

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = demoServices(context);
  const { database, mail, cancelLinks, successLinks, payments, settings } = services;
  if (!isOrderId(params.orderId)) throw new Response("Pedido no encontrado", { status: 404 });
  const form = await request.formData().catch(() => null);
  if (!form)
    return data(
      { errors: { name: "Envía el formulario de pago." } as Record<string, string> },
      { status: 400 },
    );
  if (form.get("intent") === "cancel") {
    // Like a provider's page: back to the shop's /cancel, signed for this browser, which
    // closes the session and gives the pieces back.
    // Only in the browser that started the checkout; another one gets the page that says so.
    const browser = context.get(browserIdContext);
    if (!(await isCheckoutOf(database.db, params.orderId, browser)))
      return redirect(`/cancel?pedido=${encodeURIComponent(params.orderId)}`);
    return redirect(cancelPath(cancelLinks, params.orderId, browser));
  }
  // Like a real card page, an expired session cannot be paid (even before the sweeper ran): the
  // loader says so.
  await releaseHold(database.db, params.orderId, new Date(), { onlyIfExpired: true });
  const order = await getOrder(database.db, params.orderId);
  if (!order) throw new Response("Pedido no encontrado", { status: 404 });
  if (order.status !== "esperando_pago") return redirect(`${DEMO_PAYMENT_ROUTE}/${params.orderId}`);
  const intent = form.get("intent");
  if (order.voucher) {
    // The store's part, played by a button: the voucher paid (as the provider's event would
    // confirm it) or left to expire (as its end would release it).
    if (intent === "voucher-paid") {
      await settlePayment(database.db, payments, {
        orderId: order.id,
        customerName: order.customerName,
        customerEmail: order.customerEmail,
        shipping: order.shipping,
        // The shipping chosen with the voucher, in its amount.
        shippingRate: order.shippingRate,
        charged: demoCharge(order, order.shippingRate),
      });
    } else if (intent === "voucher-expired") {
      await releaseHold(database.db, order.id);
    }
    mail.sendSoon();
    return redirect(`${DEMO_PAYMENT_ROUTE}/${params.orderId}`);
  }
  const parsed = readBuyerForm(form);
  // The first problem of each field is the one it shows.
  if (!parsed.success) return data({ errors: buyerErrors(parsed.error.issues) }, { status: 400 });
  // One payment unless the buyer chose a plan this order is offered.
  const plan = Number(form.get("plan") ?? 0);
  const plans = plansFor(settings.current(), order.totalCents);
  if (plan !== 0 && !plans.includes(plan))
    return data(
      { errors: { plan: "Elige una forma de pago de la lista." } as Record<string, string> },
      { status: 400 },
    );
  const shippingRate = demoShippingChoice(
    demoShippingOptions(settings.current().shippingRates, order.piecesCents),
    form.get(SHIPPING_FIELD),
  );
  if (shippingRate === undefined)
    return data(
      { errors: { shipping: "Elige un envío de la lista." } as Record<string, string> },
      { status: 400 },
    );
  const { name, email, phone, line1, line2, postalCode, city, state } = parsed.data;
  const shipping = { name, phone, line1, line2, postalCode, city, state, country: "MX" };
  const browser = context.get(browserIdContext);
  const success = browser ? successPath(successLinks, params.orderId, browser) : "/success";
  if (intent === "oxxo" || intent === "spei") {
    // A voucher instead of a card: only one this order is offered now.
    // What the voucher charges: the pieces and the shipping chosen (OXXO takes up to $10,000).
    const offer = await offerFor(services, {
      id: order.id,
      totalCents: order.piecesCents + (shippingRate?.cents ?? 0),
    });
    if (!offer?.[intent])
      return data(
        {
          errors: { plan: "Esta forma de pago no está disponible para este pedido." } as Record<
            string,
            string
          >,
        },
        { status: 400 },
      );
    // Over a drop's per-person limit it is cancelled at once, as the provider's would be.
    await recordVoucher(database.db, payments, order.id, demoVoucher(order.id, intent, offer.voucherEndsAt), {
      customerName: name,
      customerEmail: email,
      shipping,
      shippingRate,
    });
    mail.sendSoon();
    return redirect(success);
  }
  // The order exists (checked above) and unpaid orders are never deleted: not "unknown_order".
  // Over a drop's per-person limit: cancelled, and its refund (recorded only: nothing was charged).
  await settlePayment(database.db, payments, {
    orderId: params.orderId,
    customerName: name,
    customerEmail: email,
    shipping,
    installmentMonths: plan === 0 ? null : plan,
    shippingRate,
    charged: demoCharge(order, shippingRate),
  });
  // Send the confirmation now, without making the shopper wait for the mail server; if it
  // fails, the scheduler retries it.
  mail.sendSoon();
  // Like the provider's success_url: signed for the browser that paid, which sees the details
  // (a browser without the cookie cannot be told apart from any other: the plain thanks).
  return redirect(success);
}

export default function DemoPayment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = actionData?.errors ?? {};
  // What is paid follows the shipping chosen on the page (the first one until another is picked).
  const [chosen, setChosen] = useState(loaderData.shipping[0]?.method ?? "");
  // One picked before the page's code ran counts too.
  const form = useChoicesBeforeHydration<HTMLFormElement>((element) => {
    const picked = checkedValue(element, SHIPPING_FIELD);
    if (picked) setChosen(picked);
  });
  const shown = loaderData.shipping.find((o) => o.method === chosen) ?? loaderData.shipping[0];
  const payable =
    loaderData.shipping.find((o) => o.method === chosen)?.totalCents ??
    loaderData.shipping[0]?.totalCents ??
    loaderData.totalCents;
  return (
    <main className="mx-auto max-w-lg px-4 py-10">
      <p
        role="note"
        className="rounded-lg border-2 border-dashed border-gold-700 bg-sand/60 px-4 py-3 text-sm"
      >
        <strong>Página de pago de demostración.</strong> No se cobra nada ni se piden datos de tarjeta: en la
        tienda real aquí aparece la página de pago con tarjeta.
      </p>
      <h1 className="mt-6 font-serif text-3xl">Pedido {loaderData.id}</h1>
      {/* The summary follows the shipping picked below, as the amount charged does. */}
      <OrderLines
        lines={loaderData.lines}
        total={shown?.total ?? loaderData.total}
        shipping={shown && { label: shown.text, amount: shown.price }}
      />

      {loaderData.voucher ? (
        <DemoVoucher voucher={loaderData.voucher} busy={busy} />
      ) : loaderData.waiting ? (
        <Form
          ref={form}
          method="post"
          className="mt-8 space-y-4"
          noValidate
          onChange={(event) => {
            const field = event.target as unknown as HTMLInputElement;
            if (field.name === SHIPPING_FIELD && field.checked) setChosen(field.value);
          }}
        >
          <fieldset className="space-y-4">
            <legend className="text-sm text-ink/75">Tus datos y la dirección de envío</legend>
            {BUYER_FIELDS.map((field) => (
              <div key={field.name}>
                <label htmlFor={field.name} className="block text-sm font-medium">
                  {field.label}
                </label>
                <input
                  id={field.name}
                  name={field.name}
                  type={"type" in field ? field.type : "text"}
                  inputMode={"inputMode" in field ? field.inputMode : undefined}
                  autoComplete={field.autoComplete}
                  required
                  aria-invalid={errors[field.name] ? true : undefined}
                  aria-describedby={errors[field.name] ? `${field.name}-error` : undefined}
                  className="mt-1 w-full rounded border border-ink/30 bg-white px-3 py-2"
                />
                {errors[field.name] && (
                  <p id={`${field.name}-error`} className="mt-1 text-sm text-red-800">
                    {errors[field.name]}
                  </p>
                )}
              </div>
            ))}
          </fieldset>
          <ShippingChoiceFieldset
            name={SHIPPING_FIELD}
            options={loaderData.shipping}
            error={errors.shipping}
          />
          {loaderData.plans.length > 0 && (
            <fieldset className="space-y-2" aria-describedby={errors.plan ? "plan-error" : undefined}>
              <legend className="text-sm font-medium">Forma de pago</legend>
              <label className="flex items-center gap-3">
                <input type="radio" name="plan" value="0" defaultChecked className="size-5 accent-gold-700" />
                Una sola exhibición de {formatMXN(payable)}
              </label>
              {loaderData.plans.map((months) => (
                <label key={months} className="flex items-center gap-3">
                  <input type="radio" name="plan" value={months} className="size-5 accent-gold-700" />
                  {/* What each month costs (the last one may be a few cents less: cards round this way). */}
                  {months} meses sin intereses de {formatMXN(Math.ceil(payable / months))}
                </label>
              ))}
            </fieldset>
          )}
          {/* Outside the plans: they may be gone from the page that answers a refused plan. */}
          {errors.plan && (
            <p id="plan-error" className="text-sm text-red-800">
              {errors.plan}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              name="intent"
              value="pay"
              disabled={busy}
              className="flex-1 rounded-full bg-ink py-3 font-medium text-cream disabled:opacity-60"
            >
              {/* The total depends on the shipping chosen: each option says its own. */}
              Pagar{loaderData.shipping.length > 0 ? "" : ` ${loaderData.total}`}
            </button>
            {loaderData.oxxo && (
              <button
                type="submit"
                name="intent"
                value="oxxo"
                disabled={busy}
                className="rounded-full border border-ink px-5 py-3"
              >
                Pagar en OXXO
              </button>
            )}
            {loaderData.spei && (
              <button
                type="submit"
                name="intent"
                value="spei"
                disabled={busy}
                className="rounded-full border border-ink px-5 py-3"
              >
                Pagar por transferencia SPEI
              </button>
            )}
            <button
              type="submit"
              name="intent"
              value="cancel"
              formNoValidate
              disabled={busy}
              className="rounded-full border border-ink px-5 py-3"
            >
              Cancelar
            </button>
          </div>
          <p className="text-center text-xs text-ink/70">
            Al pagar aceptas los{" "}
            <Link to="/terminos-y-condiciones" className="underline">
              Términos y condiciones
            </Link>{" "}
            y el{" "}
            <Link to="/aviso-de-privacidad" className="underline">
              Aviso de privacidad
            </Link>
            , que explica cómo usamos tu nombre, teléfono y dirección. Consulta también{" "}
            <Link to="/envios" className="underline">
              Envíos
            </Link>{" "}
            y{" "}
            <Link to="/cambios-y-devoluciones" className="underline">
              Cambios y devoluciones
            </Link>
            .
          </p>
        </Form>
      ) : (
        <div className="mt-8">
          <p>Este pago ya expiró y las piezas volvieron a la tienda.</p>
          <Link to="/colecciones" className="mt-4 inline-block underline">
            Volver a las colecciones
          </Link>
        </div>
      )}
    </main>
  );
}

/** A voucher given on the demo page: its reference, and buttons that play the store's part. */
function DemoVoucher({
  voucher,
  busy,
}: {
  voucher: { method: string; reference: string; until: string };
  busy: boolean;
}) {
  return (
    <section aria-labelledby="ficha" className="mt-8 space-y-3">
      <h2 id="ficha" className="font-serif text-2xl">
        Ficha de demostración: {voucher.method}
      </h2>
      <p>
        Referencia <span className="font-mono">{voucher.reference}</span>, pagable hasta el {voucher.until}.
        Las piezas siguen apartadas mientras tanto.
      </p>
      <p className="text-sm text-ink/75">
        En la tienda real, el pago llega cuando la compradora paga en la tienda o el banco. Aquí lo simulas:
      </p>
      <Form method="post" className="flex flex-wrap gap-3">
        <button
          type="submit"
          name="intent"
          value="voucher-paid"
          disabled={busy}
          className="rounded-full bg-ink px-5 py-3 font-medium text-cream disabled:opacity-60"
        >
          Simular pago recibido
        </button>
        <button
          type="submit"
          name="intent"
          value="voucher-expired"
          disabled={busy}
          className="rounded-full border border-ink px-5 py-3"
        >
          Simular ficha vencida
        </button>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedido no encontrado" />;
}
