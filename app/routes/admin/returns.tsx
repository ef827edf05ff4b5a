import { useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { RouteError } from "~/components/route-error";
import type { ReturnStatus } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { REFUND_IN_PROGRESS } from "~/orders/order";
import { closeReturn, decideReturn } from "~/returns/decide.server";
import { countReturnsByStatus, getReturn, listReturns, type ReturnView } from "~/returns/queries.server";
import {
  claimForAsking,
  markReturnRefundedByHand,
  type ReturnRefundOutcome,
  receiveReturn,
  refundReturn,
} from "~/returns/refund.server";
import { readOwnerMessage } from "~/returns/return-input";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/returns";

/*
 * 'Devoluciones' (decision 48): the buyers' return requests, by where they stand. The owner
 * accepts (saying where to send the pieces) or declines (saying why); on receiving the pieces she
 * counts those that arrived, chooses which go back to stock and refunds the price of what arrived
 * through the payment provider.
 */

export const meta: Route.MetaFunction = () => [{ title: "Devoluciones · Administración" }];

const TABS = [
  { key: "solicitada", label: "Por responder", statuses: ["solicitada"] },
  { key: "aceptada", label: "Esperando piezas", statuses: ["aceptada"] },
  { key: "recibida", label: "Reembolso en curso", statuses: ["recibida"] },
  { key: "cerradas", label: "Cerradas", statuses: ["reembolsada", "rechazada", "cerrada"] },
] as const satisfies readonly { key: string; label: string; statuses: readonly ReturnStatus[] }[];

type TabKey = (typeof TABS)[number]["key"];

function tabOf(value: string | null) {
  return TABS.find((t) => t.key === value) ?? TABS[0];
}

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const tab = tabOf(new URL(args.request.url).searchParams.get("vista"));
  const [returns, counts] = await Promise.all([
    listReturns(database.db, { statuses: tab.statuses }),
    countReturnsByStatus(database.db),
  ]);
  const count = (statuses: readonly ReturnStatus[]) => statuses.reduce((sum, s) => sum + counts[s], 0);
  return {
    tab: tab.key as TabKey,
    returns,
    counts: Object.fromEntries(TABS.map((t) => [t.key, count(t.statuses)])),
  };
}

/** `line`: the order line whose count of pieces arrived was refused (its field is marked). */
/** `intent`: the form it answers (its error is shown there). */
type ActionAnswer = { ok: boolean; message: string; returnId: string; intent: string; line?: number };

const REFUND_MESSAGES: Record<ReturnRefundOutcome, { ok: boolean; text: string }> = {
  reembolsado: { ok: true, text: "Reembolso hecho; le avisamos por correo." },
  en_curso: {
    ok: true,
    text: "El proveedor aceptó el reembolso y lo está procesando; te avisamos aquí cuando termine.",
  },
  fallido: {
    ok: false,
    text: "No hubo respuesta del proveedor de pagos: el reembolso se reintenta solo en unos minutos.",
  },
  rechazado: {
    ok: false,
    text: "El proveedor de pagos no hizo el reembolso; revisa el detalle y reintenta.",
  },
  otro_proveedor: { ok: false, text: "Se pagó con otro proveedor de pagos: reembólsalo desde ahí." },
  sin_reembolso: { ok: false, text: "Esta devolución no tiene reembolso pendiente." },
};

/**
 * The pieces that arrived, by order line, from the fields `llegaron-<line>`; a count that is not a
 * whole number is kept as NaN, which the return refuses in words.
 */
function receivedCounts(form: FormData): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [name, value] of form) {
    const line = /^llegaron-(\d{1,4})$/.exec(name);
    if (!line) continue;
    const text = typeof value === "string" ? value.trim() : "";
    counts.set(Number(line[1]), /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN);
  }
  return counts;
}

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, payments, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  const returnId = String(form?.get("devolucion") ?? "");
  const intent = String(form?.get("intent") ?? "");
  const answer = (status: number, ok: boolean, message: string, line?: number) =>
    data<ActionAnswer>(
      { ok, message, returnId, intent: intent.slice(0, 20), ...(line === undefined ? {} : { line }) },
      { status, headers: { "Cache-Control": "no-store" } },
    );
  if (!/^DV-[A-Z0-9]{8}$/.test(returnId)) return answer(404, false, "La devolución no existe.");
  if (intent === "aceptar" || intent === "rechazar") {
    const decision = intent === "aceptar" ? "accept" : "decline";
    const message = readOwnerMessage(form, decision);
    if (!message.ok) return answer(400, false, message.error);
    const result = await decideReturn(database.db, returnId, decision, message.message);
    if (!result.ok) {
      return result.reason === "no_encontrada"
        ? answer(404, false, "La devolución no existe.")
        : answer(409, false, "Esta devolución ya tenía respuesta: recarga la página.");
    }
    mail.sendSoon();
    return answer(
      200,
      true,
      decision === "accept"
        ? "Devolución aceptada; le avisamos por correo."
        : "Devolución rechazada; le avisamos por correo.",
    );
  }
  if (intent === "cerrar") {
    const message = readOwnerMessage(form, "close");
    if (!message.ok) return answer(400, false, message.error);
    const result = await closeReturn(database.db, returnId, message.message);
    if (!result.ok) {
      return result.reason === "no_encontrada"
        ? answer(404, false, "La devolución no existe.")
        : answer(409, false, "Esta devolución no está esperando piezas: recarga la página.");
    }
    mail.sendSoon();
    return answer(200, true, "Devolución cerrada sin reembolso; le avisamos por correo.");
  }
  if (intent === "recibir") {
    const restock = (form?.getAll("inventario") ?? [])
      .map((v) => Number(v))
      .filter((n) => Number.isInteger(n) && n >= 0);
    const received = form ? receivedCounts(form) : new Map<number, number>();
    const result = await receiveReturn(database.db, payments, returnId, { received, restock });
    if (!result.ok) {
      if (result.reason === "no_encontrada") return answer(404, false, "La devolución no existe.");
      if (result.reason === "no_aceptada")
        return answer(409, false, "Esta devolución no está esperando piezas: recarga la página.");
      if (result.reason === "nada_recibido")
        return answer(
          400,
          false,
          "No llegó ninguna pieza: regístralas cuando lleguen, o escríbele a la clienta.",
        );
      const position = "position" in result ? result.position : -1;
      const line = (await getReturn(database.db, returnId))?.lines.find((l) => l.position === position);
      return answer(
        400,
        false,
        line
          ? `Indica cuántas piezas de «${line.name}» llegaron: un número de 0 a ${line.asked}.`
          : "Indica cuántas piezas llegaron de cada línea.",
        position,
      );
    }
    mail.sendSoon();
    const said = REFUND_MESSAGES[result.outcome];
    // The pieces are recorded as received whatever the provider said: the refund is retried.
    return answer(200, said.ok, `Piezas recibidas. ${said.text}`);
  }
  if (intent === "reintentar") {
    // Held while it is asked: the sweep leaves it, and 'Ya lo reembolsé a mano' waits for the answer.
    await claimForAsking(database.db, returnId, new Date());
    const outcome = await refundReturn(database.db, payments, returnId);
    mail.sendSoon();
    const said = REFUND_MESSAGES[outcome];
    return answer(outcome === "sin_reembolso" ? 409 : 200, said.ok, said.text);
  }
  if (intent === "amano") {
    const outcome = await markReturnRefundedByHand(database.db, returnId);
    if (outcome === "sin_reembolso") return answer(409, false, REFUND_MESSAGES.sin_reembolso.text);
    if (outcome === "en_curso")
      return answer(
        409,
        false,
        "El proveedor de pagos tiene este reembolso en curso: espera a que termine; no lo reembolses a mano.",
      );
    if (outcome === "se_pide_ahora")
      return answer(
        409,
        false,
        "La tienda está pidiendo este reembolso al proveedor en este momento: revisa en unos minutos si se hizo.",
      );
    mail.sendSoon();
    return answer(200, true, "Registrado como reembolsado a mano; le avisamos por correo.");
  }
  return answer(400, false, "Acción no reconocida.");
}

export default function AdminReturns({ loaderData, actionData }: Route.ComponentProps) {
  // The view from the loader (not useSearchParams: that hook would join every page's shared React
  // Router file, the storefront's JavaScript budget).
  const vista = loaderData.tab;
  return (
    <main>
      <h1 className="font-serif text-3xl">Devoluciones</h1>
      <p className="mt-1 text-sm text-ink/75">
        Las clientas piden devoluciones desde Mi pedido, dentro de 5 días hábiles desde la entrega.
      </p>
      <nav aria-label="Vistas de devoluciones" className="mt-4 flex flex-wrap gap-2">
        {TABS.map((t) => (
          <Link
            key={t.key}
            to={`?vista=${t.key}`}
            aria-current={vista === t.key ? "page" : undefined}
            className="rounded-full bg-sand/60 px-4 py-2 text-sm aria-[current=page]:bg-ink aria-[current=page]:text-cream"
          >
            {t.label} ({loaderData.counts[t.key] ?? 0})
          </Link>
        ))}
      </nav>
      {actionData && (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={`mt-4 text-sm ${actionData.ok ? "" : "text-red-900"}`}
        >
          {actionData.returnId && `${actionData.returnId}: `}
          {actionData.message}
        </p>
      )}
      {loaderData.returns.length === 0 ? (
        <p className="mt-8 text-ink/75">No hay devoluciones aquí.</p>
      ) : (
        <ul className="mt-6 space-y-6">
          {loaderData.returns.map((r) => (
            <ReturnCard
              key={r.id}
              view={r}
              refused={actionData && !actionData.ok && actionData.returnId === r.id ? actionData : null}
            />
          ))}
        </ul>
      )}
    </main>
  );
}

function ReturnCard({ view, refused }: { view: ReturnView; refused: ActionAnswer | null }) {
  const busy = useNavigation().state !== "idle";
  // Each form shows the refusal of its own intent.
  const errorOf = (intent: string) => (refused?.intent === intent ? refused.message : null);
  const error = errorOf("aceptar") ?? errorOf("rechazar");
  return (
    <li
      className="rounded-lg border border-sand p-4"
      data-testid="return-card"
      aria-labelledby={`dv-${view.id}`}
    >
      <h2 id={`dv-${view.id}`} className="font-medium">
        Devolución {view.id} · {view.statusLabel}
      </h2>
      <p className="text-sm text-ink/75">
        Pedido{" "}
        <Link to={`/admin/orders/${view.orderId}`} className="underline">
          {view.orderId}
        </Link>{" "}
        · {view.customerName} ({view.customerEmail}) · pedida el {view.requestedAt}
      </p>
      <p className="mt-2 text-sm">
        Motivo: {view.reason}
        {view.comment && <span className="block whitespace-pre-line text-ink/80">«{view.comment}»</span>}
      </p>
      {view.ownerMessage && (
        <p className="mt-2 whitespace-pre-line text-sm">Tu respuesta: {view.ownerMessage}</p>
      )}
      {view.status === "solicitada" && (
        <Form method="post" className="mt-3 space-y-2">
          <input type="hidden" name="devolucion" value={view.id} />
          <Pieces view={view} />
          <label htmlFor={`mensaje-${view.id}`} className="block text-sm font-medium">
            Mensaje para la clienta (a dónde enviar las piezas, o por qué no)
          </label>
          <textarea
            id={`mensaje-${view.id}`}
            name="mensaje"
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `mensaje-${view.id}-error` : undefined}
            className="w-full rounded border border-ink/30 bg-white px-3 py-2 text-sm"
          />
          {error && (
            <p id={`mensaje-${view.id}-error`} className="text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              name="intent"
              value="aceptar"
              disabled={busy}
              className="rounded-full bg-ink px-4 py-2 text-sm text-cream"
            >
              Aceptar devolución
            </button>
            <button
              type="submit"
              name="intent"
              value="rechazar"
              disabled={busy}
              className="rounded-full border border-ink px-4 py-2 text-sm"
            >
              Rechazar devolución
            </button>
          </div>
        </Form>
      )}
      {view.status === "aceptada" && (
        <>
          <ReceiveForm view={view} busy={busy} error={errorOf("recibir")} errorLine={refused?.line} />
          <CloseForm view={view} busy={busy} error={errorOf("cerrar")} />
        </>
      )}
      {(view.status === "recibida" || view.status === "reembolsada") && (
        <>
          <Pieces view={view} />
          <p className="mt-2 text-sm">
            {view.status === "reembolsada"
              ? `Reembolsado ${view.refund} el ${view.refundedAt}.`
              : `Reembolso de ${view.refund} pendiente${view.refundError ? `: ${view.refundError}` : "."}`}
          </p>
        </>
      )}
      {view.status === "recibida" && (
        <Form method="post" className="mt-2">
          <input type="hidden" name="devolucion" value={view.id} />
          <button
            type="submit"
            name="intent"
            value="reintentar"
            disabled={busy}
            className="rounded-full border border-ink px-4 py-2 text-sm"
          >
            Reintentar reembolso
          </button>
          {view.refundError !== REFUND_IN_PROGRESS && (
            <button
              type="submit"
              name="intent"
              value="amano"
              disabled={busy}
              className="ml-2 rounded-full border border-ink px-4 py-2 text-sm"
            >
              Ya lo reembolsé a mano
            </button>
          )}
        </Form>
      )}
      {(view.status === "rechazada" || view.status === "cerrada") && <Pieces view={view} />}
    </li>
  );
}

/**
 * The pieces as they arrive: how many of each line came (all, by default) and whether they go back
 * to stock; the refund is the price of those that came, shown on the button as she counts.
 */
function ReceiveForm({
  view,
  busy,
  error,
  errorLine,
}: {
  view: ReturnView;
  busy: boolean;
  error: string | null;
  errorLine: number | undefined;
}) {
  const [counts, setCounts] = useState(() => view.lines.map((l) => String(l.asked)));
  // The refund as she counts; none named while a count is not a number of pieces she sent.
  const arrived = view.lines.map((l, i) => {
    const n = counts[i]?.trim() ? Number(counts[i]) : Number.NaN;
    return Number.isInteger(n) && n >= 0 && n <= l.asked ? n : null;
  });
  const refund = arrived.every((n) => n !== null)
    ? formatMXN(view.lines.reduce((sum, l, i) => sum + (arrived[i] ?? 0) * l.unitPriceCents, 0))
    : null;
  const errorId = `recibir-${view.id}-error`;
  return (
    <Form method="post" className="mt-3 space-y-2">
      <input type="hidden" name="devolucion" value={view.id} />
      <fieldset>
        <legend className="text-sm font-medium">
          Piezas recibidas: ¿cuántas llegaron y cuáles vuelven al inventario?
        </legend>
        <ul className="mt-1 space-y-2 text-sm">
          {view.lines.map((l, i) => (
            <li key={l.position} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <span>
                {l.name} × {l.asked}: {formatMXN(l.unitPriceCents)} c/u
              </span>
              <label className="flex items-center gap-2">
                Llegaron
                <input
                  type="number"
                  name={`llegaron-${l.position}`}
                  min={0}
                  max={l.asked}
                  step={1}
                  inputMode="numeric"
                  required
                  value={counts[i] ?? ""}
                  onChange={(e) => {
                    const next = [...counts];
                    next[i] = e.currentTarget.value;
                    setCounts(next);
                  }}
                  aria-label={`Piezas de ${l.name} que llegaron`}
                  aria-invalid={errorLine === l.position || arrived[i] === null ? true : undefined}
                  aria-describedby={error && errorLine === l.position ? errorId : undefined}
                  className="w-16 rounded border border-ink/30 bg-white px-2 py-1"
                />
              </label>
              <label className="flex items-center gap-2">
                <input type="checkbox" name="inventario" value={l.position} defaultChecked />
                <span>
                  Vuelven al inventario<span className="sr-only">: {l.name}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {error && (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      )}
      <p className="text-sm text-ink/75">Se reembolsa el precio de las piezas que llegaron.</p>
      <button
        type="submit"
        name="intent"
        value="recibir"
        disabled={busy}
        className="rounded-full bg-ink px-4 py-2 text-sm text-cream"
      >
        {refund === null ? "Recibidas: reembolsar" : `Recibidas: reembolsar ${refund}`}
      </button>
    </Form>
  );
}

/** An accepted return whose pieces never came: closed without a refund, with words for the buyer. */
function CloseForm({ view, busy, error }: { view: ReturnView; busy: boolean; error: string | null }) {
  const id = `cerrar-${view.id}`;
  return (
    <details className="mt-3 text-sm" open={error !== null}>
      <summary className="cursor-pointer underline">¿Las piezas no llegarán? Cerrar sin reembolso</summary>
      <Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="devolucion" value={view.id} />
        <label htmlFor={id} className="block font-medium">
          Mensaje para la clienta (por qué se cierra)
        </label>
        <textarea
          id={id}
          name="mensaje"
          rows={2}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="w-full rounded border border-ink/30 bg-white px-3 py-2"
        />
        {error && (
          <p id={`${id}-error`} className="text-red-800">
            {error}
          </p>
        )}
        <button
          type="submit"
          name="intent"
          value="cerrar"
          disabled={busy}
          className="rounded-full border border-ink px-4 py-2"
        >
          Cerrar sin reembolso
        </button>
      </Form>
    </details>
  );
}

function Pieces({ view }: { view: ReturnView }) {
  return (
    <ul className="text-sm">
      {view.lines.map((l) => (
        <li key={l.position}>
          {l.name} × {l.quantity}: {l.amount}
          {l.received !== null && l.received < l.asked && ` · llegaron ${l.received} de ${l.asked}`}
          {l.restock !== null &&
            l.quantity > 0 &&
            (view.status === "reembolsada"
              ? l.restock
                ? " · volvió al inventario"
                : " · no volvió al inventario"
              : l.restock
                ? " · vuelve al inventario al hacerse el reembolso"
                : " · no vuelve al inventario")}
        </li>
      ))}
      <li className="font-medium">Reembolso: {view.refund}</li>
    </ul>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Devolución no encontrada" message="No pudimos mostrar las devoluciones." />
  );
}
