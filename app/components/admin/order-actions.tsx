import { useEffect, useId, useRef, useState } from "react";
import type { Order } from "~/orders/order";
import { deskActions } from "~/orders/status";
import { orderAction, useDeskFetcher } from "./desk-fetcher";
import { ConfirmDialog, Modal } from "./modal";
import { ShipmentFields } from "./shipment-form";

const buttonStyle = "min-h-11 rounded-full px-5 text-sm font-medium";
/** In a table row: smaller buttons, still big enough to tap. */
const compactButton = "min-h-10 rounded-full px-3 text-xs font-medium";

/**
 * The spec's actions for an order, by its status: pendiente 'Atender pedido' and 'Eliminar pedido'
 * (a paid order: cancelled with its refund, decision 37); enviado 'Archivar' and 'Borrar del
 * historial'; archivado 'Borrar del historial' and 'Desarchivar'. `afterDelete`: where to go once
 * the order leaves the tabs (its own page has nothing left to do); lists stay put.
 */
export function OrderActions({
  orderId,
  status,
  total,
  afterDelete,
  carriers,
  compact,
  delivered = false,
}: {
  orderId: string;
  status: Order["status"];
  /** `$16,050.00`: what a cancellation refunds. */
  total: string;
  afterDelete?: string;
  /** The carriers' names from Configuración. */
  carriers?: readonly string[];
  /** Smaller buttons, for a row of the orders table. */
  compact?: boolean;
  /** Already marked 'Entregado' (an order in 'Enviado' shows the button until then; an archived one is done with). */
  delivered?: boolean;
}) {
  const button = compact ? compactButton : buttonStyle;
  const fetcher = useDeskFetcher();
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  const actions = deskActions(status);
  const deleting = actions.includes("eliminar") ? "eliminar" : actions.includes("borrar") ? "borrar" : null;
  const remove = (intent: "eliminar" | "borrar") => {
    setConfirming(false);
    void fetcher.submit(
      { intent, ...(afterDelete ? { volver: afterDelete } : {}) },
      { method: "post", action: orderAction(orderId), preventScrollReset: true },
    );
  };
  return (
    <div className="flex flex-wrap gap-2">
      {actions.includes("atender") && <ShipDialog orderId={orderId} carriers={carriers} opener={button} />}
      {status === "enviado" && !delivered && (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            fetcher.submit({ intent: "entregado" }, { method: "post", action: orderAction(orderId) })
          }
          className={`${button} border border-ink disabled:opacity-60`}
        >
          Marcar entregado
        </button>
      )}
      {actions.includes("desarchivar") && (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            fetcher.submit({ intent: "desarchivar" }, { method: "post", action: orderAction(orderId) })
          }
          className={`${button} border border-ink disabled:opacity-60`}
        >
          Desarchivar
        </button>
      )}
      {actions.includes("archivar") && (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            fetcher.submit({ intent: "archivar" }, { method: "post", action: orderAction(orderId) })
          }
          className={`${button} border border-ink disabled:opacity-60`}
        >
          Archivar
        </button>
      )}
      {deleting && (
        <>
          <button
            type="button"
            disabled={busy}
            onClick={() => setConfirming(true)}
            className={`${button} border border-red-800 text-red-800 disabled:opacity-60`}
          >
            {deleting === "eliminar" ? "Eliminar pedido" : "Borrar del historial"}
          </button>
          <ConfirmDialog
            open={confirming}
            title={
              deleting === "eliminar"
                ? `¿Cancelar y reembolsar el pedido ${orderId}?`
                : `¿Borrar ${orderId} del historial?`
            }
            confirmLabel={deleting === "eliminar" ? `Cancelar y reembolsar ${total}` : "Borrar del historial"}
            dismissLabel={deleting === "eliminar" ? "No, volver" : "Cancelar"}
            onClose={() => setConfirming(false)}
            onConfirm={() => remove(deleting)}
          >
            {deleting === "eliminar" ? (
              <>
                <p>
                  Este pedido ya está pagado: se le reembolsarán {total} al cliente por el proveedor de pagos
                  y le enviaremos un correo. Sus piezas vuelven al inventario cuando el reembolso se haga.
                </p>
                <p className="mt-2">
                  No se puede deshacer. El pedido queda en «Cancelados» para tus cuentas.
                </p>
              </>
            ) : (
              <>
                <p>
                  Sale de las pestañas para siempre; su registro queda en «Borrados del historial» y en el
                  CSV.
                </p>
                <p className="mt-2">El inventario no cambia: las piezas ya se enviaron.</p>
              </>
            )}
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}

/** 'Atender pedido': a dialog asking carrier and tracking number. */
function ShipDialog({
  orderId,
  carriers,
  opener,
}: {
  orderId: string;
  carriers?: readonly string[];
  /** The opening button's style. */
  opener: string;
}) {
  const button = buttonStyle;
  const fetcher = useDeskFetcher();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  // Each answer about this order is read once: a refusal shows in the dialog, a success closes it.
  useEffect(() => {
    if (answer?.intent !== "atender" || answer.orderId !== orderId) return;
    if (answer.ok) setOpen(false);
    else setError(answer.message);
  }, [answer, orderId]);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        className={`${opener} bg-ink text-cream`}
      >
        Atender pedido
      </button>
      <Modal open={open} title={`Atender pedido ${orderId}`} onClose={() => setOpen(false)}>
        {({ descriptionId }) => (
          <>
            <p id={descriptionId} className="mt-2 text-sm text-ink/75">
              Al confirmar, el pedido pasa a «enviado» y el cliente recibe un correo con la guía.
            </p>
            <fetcher.Form method="post" action={orderAction(orderId)} noValidate className="mt-4">
              <input type="hidden" name="intent" value="atender" />
              <ShipmentFields
                idPrefix={`ship-${orderId}`}
                errorId={error ? errorId : undefined}
                carriers={carriers}
              />
              {error && (
                <p
                  id={errorId}
                  role="alert"
                  className="mt-4 rounded bg-red-50 px-3 py-2 text-sm text-red-800"
                >
                  {error}
                </p>
              )}
              <div className="mt-6 flex flex-wrap justify-end gap-3">
                <button
                  type="button"
                  onClick={() => setOpen(false)}
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
          </>
        )}
      </Modal>
    </>
  );
}

/**
 * The answer of the last desk action. The two live regions are always in the page (screen readers
 * announce changes to a region they already know); a success takes the focus, since the order's
 * card may just have left the list. `initial`: a message carried in the address (after a redirect).
 */
export function DeskNotice({ initial }: { initial?: string | null }) {
  const fetcher = useDeskFetcher();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const statusRef = useRef<HTMLParagraphElement>(null);
  // A refused shipment is told in its dialog, which stays open (one order's, or the batch's);
  // refused fields, beside each one.
  const shown =
    answer &&
    !((answer.intent === "atender" || answer.intent === "atenderlote") && !answer.ok) &&
    !(answer.fields && !answer.ok)
      ? answer
      : undefined;
  const ok = shown?.ok ? shown.message : shown ? "" : (initial ?? "");
  const failed = shown && !shown.ok ? shown.message : "";
  useEffect(() => {
    if (shown?.ok) statusRef.current?.focus();
  }, [shown]);
  const box = "mt-4 rounded-lg px-4 py-3 text-sm";
  return (
    <>
      <p
        ref={statusRef}
        role="status"
        tabIndex={-1}
        className={ok ? `${box} bg-emerald-50 text-emerald-900` : ""}
      >
        {ok}
      </p>
      <p role="alert" className={failed ? `${box} bg-red-50 text-red-800` : ""}>
        {failed}
      </p>
    </>
  );
}
