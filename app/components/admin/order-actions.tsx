import { useEffect, useId, useRef, useState } from "react";
import type { OrderStatus } from "~/db/schema";
import { deskActions } from "~/orders/status";
import { ConfirmDialog } from "./confirm-dialog";
import { orderAction, useDeskFetcher } from "./desk-fetcher";
import { ShipmentFields } from "./shipment-form";

const button = "min-h-11 rounded-full px-5 text-sm font-medium";

/**
 * The spec's actions for an order, by its status: pendiente 'Atender pedido' and 'Eliminar pedido';
 * enviado 'Archivar' and 'Borrar del historial'; archivado 'Borrar del historial'. `returnTo`: where
 * to go after the order is deleted (the detail page has nothing left to show).
 */
export function OrderActions({
  orderId,
  status,
  returnTo,
}: {
  orderId: string;
  status: OrderStatus;
  returnTo?: string;
}) {
  const fetcher = useDeskFetcher();
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  const actions = deskActions(status);
  const remove = (intent: "eliminar" | "borrar") => {
    void fetcher.submit(
      { intent, ...(returnTo ? { volver: returnTo } : {}) },
      { method: "post", action: orderAction(orderId) },
    );
    setConfirming(false);
  };
  const deleting = actions.includes("eliminar") ? "eliminar" : actions.includes("borrar") ? "borrar" : null;
  return (
    <div className="flex flex-wrap gap-2">
      {actions.includes("atender") && <ShipDialog orderId={orderId} />}
      {actions.includes("archivar") && (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            fetcher.submit({ intent: "archivar" }, { method: "post", action: orderAction(orderId) })
          }
          className={`${button} border border-ink`}
        >
          Archivar
        </button>
      )}
      {deleting && (
        <>
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className={`${button} border border-red-800 text-red-800`}
          >
            {deleting === "eliminar" ? "Eliminar pedido" : "Borrar del historial"}
          </button>
          <ConfirmDialog
            open={confirming}
            title={
              deleting === "eliminar"
                ? `¿Eliminar el pedido ${orderId}?`
                : `¿Borrar ${orderId} del historial?`
            }
            confirmLabel={deleting === "eliminar" ? "Eliminar pedido" : "Borrar del historial"}
            busy={busy}
            onClose={() => setConfirming(false)}
            onConfirm={() => remove(deleting)}
          >
            <p>Se borrará para siempre y no se puede deshacer.</p>
            <p className="mt-2">
              {deleting === "eliminar"
                ? "Como no se ha enviado, sus piezas vuelven al inventario."
                : "El inventario no cambia: las piezas ya se enviaron."}
            </p>
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}

/** 'Atender pedido': a dialog asking carrier and tracking number. */
function ShipDialog({ orderId }: { orderId: string }) {
  const fetcher = useDeskFetcher();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const answer = fetcher.data;
  const mine = answer?.intent === "atender" && answer.orderId === orderId;
  const error = mine && !answer.ok && fetcher.state === "idle" ? answer.message : null;
  useEffect(() => {
    if (mine && answer.ok) ref.current?.close();
  }, [mine, answer]);
  return (
    <>
      <button
        type="button"
        onClick={() => ref.current?.showModal()}
        className={`${button} bg-ink text-cream`}
      >
        Atender pedido
      </button>
      <dialog
        ref={ref}
        aria-labelledby={titleId}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-cream p-6 text-ink shadow-xl backdrop:bg-black/50"
      >
        <h2 id={titleId} className="font-serif text-2xl">
          Atender pedido {orderId}
        </h2>
        <p className="mt-2 text-sm text-ink/75">
          Al confirmar, el pedido pasa a «enviado» y el cliente recibe un correo con la guía.
        </p>
        <fetcher.Form method="post" action={orderAction(orderId)} noValidate className="mt-4">
          <input type="hidden" name="intent" value="atender" />
          <ShipmentFields idPrefix={`ship-${orderId}`} />
          {error && (
            <p role="alert" className="mt-4 rounded bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button
              type="button"
              onClick={() => ref.current?.close()}
              className={`${button} border border-ink`}
            >
              Cancelar
            </button>
            <button
              type="submit"
              disabled={fetcher.state !== "idle"}
              className={`${button} bg-ink text-cream disabled:opacity-60`}
            >
              Marcar como enviado
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}

/** The answer of the last desk action, as a notice at the top of the page. */
export function DeskNotice() {
  const fetcher = useDeskFetcher();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  // A refused shipment is told in its dialog, which stays open.
  if (!answer || (answer.intent === "atender" && !answer.ok)) {
    return <div role="status" className="sr-only" />;
  }
  return (
    <p
      role={answer.ok ? "status" : "alert"}
      className={`mt-4 rounded-lg px-4 py-3 text-sm ${answer.ok ? "bg-emerald-50 text-emerald-900" : "bg-red-50 text-red-800"}`}
    >
      {answer.message}
    </p>
  );
}
