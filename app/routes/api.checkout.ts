/*
 * POST /api/checkout { cart: [{ product: { id }, dropId, quantity }] } -> { url } or { message } is
 * answered by the server before React Router, in one place: server/edge-routes.ts (after the
 * request limits and the proof of work), with its front door for drop day in
 * server/checkout-fast-path.ts. The route exists so that anything else asked of the address
 * (a GET, a data request such as /api/checkout.data) gets a Spanish 405 instead of a page, and
 * never reaches a checkout without the limits.
 */
const notHere = () =>
  Response.json(
    { message: "Usa POST para iniciar el pago." },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } },
  );

export const loader = notHere;
export const action = notHere;
