import { newId } from "~/lib/ids";

/** Order numbers people can read out on the phone: "OL-" and 8 unambiguous characters. */
export function newOrderId(): string {
  return `OL-${newId(8).toUpperCase()}`;
}

/** Whether `value` has the shape of an order number from `newOrderId`: checked before any query. */
export function isOrderId(value: string): boolean {
  return /^OL-[A-Z0-9]{8}$/.test(value);
}
