import type { Order } from "./order";

/** What a packing slip prints: the order, each line's metal facts, its certificates, the shop. */
export interface PackingSlipData {
  order: Order;
  /** A certificate of authenticity per numbered piece, printed after the slip. */
  certificates: { name: string; edition: string; metal: string }[];
  /** Each line's metal facts in one line ("Oro de 14 k (585) · 2.35 g"), in the lines' order. */
  metal: string[];
  shop: { name: string; email: string; whatsapp: string };
}
