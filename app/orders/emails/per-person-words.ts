/*
 * What the buyer reads of 'Máximo N por persona' (decision 29) in either e-mail that tells her an
 * order went over it: a payment cancelled and refunded, or a voucher cancelled before it was paid.
 */

/** Why the shop keeps to the limit, and what became of the pieces. */
export const PER_PERSON_FAIR =
  "Lo hacemos para que las pocas piezas de cada colección lleguen a más personas: las piezas de este pedido pasaron a quien seguía en la fila. Tus otros pedidos siguen en pie.";

/** How to tell the shop it judged wrong. */
export const PER_PERSON_ASK =
  "Si crees que es un error (por ejemplo, dos personas distintas que comparten una dirección), respóndenos y lo revisamos.";
