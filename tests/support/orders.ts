import type { Db } from "~/db/database.server";
import { type HeldOrder, holdCart } from "~/orders/holds.server";

/** Holds a cart that the test expects to be held; a refusal fails the test with its message. */
export async function hold(db: Db, input: Parameters<typeof holdCart>[1]): Promise<HeldOrder> {
  const result = await holdCart(db, input);
  if (!result.ok) throw new Error(`hold refused: ${result.message}`);
  return result;
}
