import { useFetcher } from "react-router";

/** What every orders-desk action answers: shown as the page's notice and in its dialog. */
export interface DeskActionData {
  ok: boolean;
  message: string;
  intent: string;
  orderId: string;
  /** Several orders at once ('Atender seleccionados'): each problem, by its line or its order. */
  problems?: string[];
  /** A form's refused fields ('Corregir datos del comprador'): each one's message, by its name. */
  fields?: Record<string, string>;
}

/**
 * All desk actions go through one keyed fetcher, so their answer outlives the order card that
 * sent it (a shipped order leaves the pendiente tab at once) and the page can still say how it went.
 */
export function useDeskFetcher() {
  return useFetcher<DeskActionData>({ key: "orders-desk" });
}

/** The desk's action for one order. */
export const orderAction = (orderId: string) => `/admin/orders/${orderId}`;
