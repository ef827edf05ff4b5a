import { expect } from "vitest";
import type { Database } from "~/db/database.server";
import { demoPayment, runningPiece } from "./catalogue";
import type { RunningServer } from "./server-process";

/**
 * A piece of its own bought through the server as a shopper does: 'Pagar' (/api/checkout), then
 * the demo payment page filled in by `buyer` with `email`. Returns the order's number.
 */
export async function boughtOnDemoPage(
  server: RunningServer,
  database: Database,
  piece: { name: string; priceCents: number },
  buyer: { name: string; email: string },
): Promise<string> {
  const { id, dropId } = await runningPiece(database, { stock: 1, ...piece });
  const checkout = await fetch(`${server.url}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ cart: [{ product: { id }, dropId, quantity: 1 }] }),
  });
  const { url } = (await checkout.json()) as { url: string };
  const paid = await fetch(`${server.url}${url}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams(demoPayment(buyer.name, buyer.email)),
  });
  expect(paid.status).toBe(302);
  return url.split("/").pop() ?? "";
}
