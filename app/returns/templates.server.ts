import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import {
  RETURN_ACCEPTED_EMAIL,
  RETURN_DECLINED_EMAIL,
  RETURN_REFUNDED_EMAIL,
  RETURN_REQUESTED_EMAIL,
} from "~/mail/kinds";
import type { EmailTemplates } from "~/mail/queue.server";
import {
  returnAcceptedEmail,
  returnDeclinedEmail,
  returnRefundedEmail,
  returnRequestedEmail,
} from "./emails";
import { getReturn, type ReturnView } from "./queries.server";

/** The return e-mails the mail queue can render, each reading its return when it is sent. */
export function returnEmailTemplates(
  db: Db,
  shop: () => PublicShopSettings,
  /** 'Mi pedido' of an order, as an absolute address; null when the shop has none to give. */
  pageUrlOf: (orderId: string) => Promise<string | null>,
): EmailTemplates {
  const withReturn =
    (
      render: (
        view: ReturnView,
        shop: PublicShopSettings,
        pageUrl: string | null,
      ) => ReturnType<typeof returnRequestedEmail>,
    ) =>
    async ({ payload }: { payload: Record<string, unknown> }) => {
      const returnId = typeof payload.returnId === "string" ? payload.returnId : null;
      const view = returnId ? await getReturn(db, returnId) : null;
      if (!view) return null;
      return render(view, shop(), await pageUrlOf(view.orderId));
    };
  return {
    [RETURN_REQUESTED_EMAIL]: withReturn(returnRequestedEmail),
    [RETURN_ACCEPTED_EMAIL]: withReturn(returnAcceptedEmail),
    [RETURN_DECLINED_EMAIL]: withReturn(returnDeclinedEmail),
    [RETURN_REFUNDED_EMAIL]: withReturn(returnRefundedEmail),
  };
}
