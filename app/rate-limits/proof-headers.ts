/*
 * What the server and the page say to each other about the checkout's proof of work, besides the
 * proof itself (header `X-Altcha` of the checkout). Plain constants: the page's code reads them.
 */

/**
 * On an answer of /api/reto whose challenge is made for a browser cookie issued with that same
 * answer. Another /api request sent at the same moment (the cart drawer's first /api/cart) may
 * have been given another cookie, and the browser keeps whichever came last: the page asks again
 * once it has solved, to learn whether its proof is still its browser's.
 */
export const NEW_BROWSER_HEADER = "X-Navegador-Nuevo";

/**
 * On a checkout refused for its proof of work (the reason: falta, invalido, ajeno, vencido,
 * usado): the page solves a new one and asks once more.
 */
export const PROOF_REFUSED_HEADER = "X-Reto-Rechazado";
