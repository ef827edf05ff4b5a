import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatMXN } from "~/lib/money";
import { REFUND_IN_PROGRESS } from "~/orders/order";
import { isNoAnswer } from "~/orders/refund-timing";
import type { ReturnView } from "~/returns/queries.server";

/*
 * One return on the owner's 'Devoluciones' desk (routes/admin/returns.tsx, decision 48): what was
 * asked and why, and the forms of where it stands (answer it, count what arrived, close it without
 * its pieces, retry or record its refund).
 */

/** An action's refusal for this card: the form it answers (`intent`) shows it; `line`: the count refused. */
export interface ReturnRefusal {
  intent: string;
  message: string;
  line?: number;
}

export function ReturnCard({ view, refused }: { view: ReturnView; refused: ReturnRefusal | null }) {
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
              : `Reembolso de ${view.refund} pendiente${view.refundError ? `: ${view.refundError}` : "."}${isNoAnswer(view.refundError) ? " Puede que el proveedor sí lo haya hecho: no lo reembolses a mano mientras no conteste." : ""}`}
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
          {view.refundError !== REFUND_IN_PROGRESS && !isNoAnswer(view.refundError) && (
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
              {l.numbers.length > 1 && (
                // Its certificates: the numbers that came back go to the next buyer, the others stay hers.
                <fieldset
                  className="flex w-full flex-wrap items-center gap-x-4 gap-y-1"
                  aria-describedby={error && errorLine === l.position ? errorId : undefined}
                >
                  <legend className="sr-only">Piezas numeradas de {l.name} que llegaron</legend>
                  <span aria-hidden="true">Llegaron (por su certificado):</span>
                  {l.numbers.map((n) => (
                    <label key={n} className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name={`numero-${l.position}`}
                        value={n}
                        defaultChecked={l.asked >= l.numbers.length}
                      />
                      Pieza {n}
                    </label>
                  ))}
                </fieldset>
              )}
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
