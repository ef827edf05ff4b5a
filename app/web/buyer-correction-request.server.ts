import type { Db } from "~/db/database.server";
import { correctBuyer } from "~/orders/buyer-correction.server";
import { buyerCorrectionSchema, buyerErrors, changedFieldsText, readBuyerForm } from "~/orders/buyer-input";
import { STATUS_LABELS } from "~/orders/status";

/** A desk answer's status and what it says; `fields`: each refused field's message, by its name. */
export interface BuyerCorrectionAnswer {
  status: number;
  body: { ok: boolean; message: string; fields?: Record<string, string> };
}

/**
 * 'Corregir datos del comprador' on the order's page: the checkout's own checks (400, beside each
 * field), then the correction; an order no longer waiting to ship is a conflict (409), an unknown
 * or unpaid one is not found (404), as for every desk action.
 */
export async function buyerCorrectionAnswer(
  db: Db,
  orderId: string,
  form: FormData,
): Promise<BuyerCorrectionAnswer> {
  const parsed = readBuyerForm(form, buyerCorrectionSchema);
  if (!parsed.success) {
    const fields = buyerErrors(parsed.error.issues);
    return { status: 400, body: { ok: false, message: Object.values(fields)[0] ?? "", fields } };
  }
  const result = await correctBuyer(db, orderId, parsed.data);
  if (!result.ok) {
    if (result.reason === "no_encontrado")
      return { status: 404, body: { ok: false, message: "Pedido no encontrado." } };
    const now = result.status ? STATUS_LABELS[result.status].toLowerCase() : "otro";
    return {
      status: 409,
      body: {
        ok: false,
        message: `Los datos del comprador solo se corrigen antes de enviar el pedido, y este ahora está «${now}». Recarga la página para ver su estado.`,
      },
    };
  }
  if (result.changed.length === 0)
    return { status: 200, body: { ok: true, message: "Los datos ya eran esos: no cambió nada." } };
  const corrected = `Datos del comprador corregidos: ${changedFieldsText(result.changed)}.`;
  return {
    status: 200,
    body: {
      ok: true,
      message: result.changed.includes("email")
        ? `${corrected} Los correos que ya salieron fueron a la dirección anterior y no se mandan solos de nuevo: en el Historial, 'Reenviar' manda una copia a la nueva.`
        : corrected,
    },
  };
}
