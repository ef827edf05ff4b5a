import { log } from "~/config/log.server";
import { errorLine } from "~/lib/errors";
import { type PaymentProvider, RefundFailed, RefundNotAsked, type RefundRequest } from "./payment-port";
import { noAnswerError } from "./refund-timing";

/*
 * One conversation with the provider about a refund the shop owes (an order's, decision 29, or a
 * return's, decision 48): a refund it accepted before is asked how it stands; one that failed is
 * asked anew, keyed after the failed one; otherwise it is asked for. The caller records the answer.
 */

export type RefundAnswer =
  /** Made, or accepted and still in the provider's hands: its id, to record or to ask again. */
  | { kind: "hecho" | "en_curso"; refundId: string }
  /**
   * No answer (network, the provider's own failure): nothing known, ask again later. Its error is
   * marked (`isNoAnswer`), so the owner is not offered to refund it by hand meanwhile.
   */
  | { kind: "sin_respuesta"; error: string }
  /** The provider answered that it did not make it (the failed refund's id, when it names one). */
  | { kind: "rechazado"; error: string; refundId: string | null };

export async function askForRefund(
  payments: PaymentProvider,
  knownRefundId: string | null,
  request: Omit<RefundRequest, "after">,
): Promise<RefundAnswer> {
  let after: string | null = null;
  if (knownRefundId) {
    try {
      const state = await payments.refundState(knownRefundId);
      if (state !== "fallido") return { kind: state, refundId: knownRefundId };
    } catch (error) {
      return { kind: "sin_respuesta", error: noAnswerError(errorLine(error)) };
    }
    after = knownRefundId;
  }
  try {
    const answer = await payments.refund({ ...request, after });
    return { kind: answer.state, refundId: answer.id };
  } catch (error) {
    const line = errorLine(error);
    log.error({ orderId: request.orderId, error: line }, "No se pudo reembolsar el pedido");
    if (error instanceof RefundFailed) return { kind: "rechazado", error: line, refundId: error.refundId };
    return { kind: "sin_respuesta", error: error instanceof RefundNotAsked ? line : noAnswerError(line) };
  }
}
