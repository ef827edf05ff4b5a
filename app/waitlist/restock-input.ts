import { type DropDates, isDropPurchasable } from "~/catalogue/drop-time";
import type { DropStatus } from "~/db/taxonomy";

/*
 * 'Avísame si vuelve' (decision 46): the form's field names, when a piece takes requests, and every
 * sentence the form can answer. Plain TypeScript, shared by the page and the server.
 */

/** The product page's form tells its two lists apart by this field (the drop's 'Avísame' sends none). */
export const RESTOCK_FIELDS = { list: "aviso", size: "talla" } as const;
/** `aviso`'s value for 'Avísame si vuelve'. */
export const RESTOCK_LIST = "pieza";

/**
 * A sold-out piece (or size) takes requests only while its drop is on sale: pieces come back from
 * unpaid checkouts and the owner's restocks while it runs; once it ended (or was archived) it sells
 * nothing more, so nobody is asked to wait for it.
 */
export function takesRestockRequests(drop: DropDates & { status: DropStatus }, now: Date): boolean {
  return isDropPurchasable(drop, now);
}

export type RestockRefusal =
  | "correo_invalido"
  | "sin_consentimiento"
  | "pieza_no_encontrada"
  | "sin_talla"
  | "pieza_disponible"
  | "drop_no_activo";

export const RESTOCK_MESSAGES: Record<RestockRefusal, string> = {
  correo_invalido: "Escribe un correo electrónico válido, por ejemplo nombre@correo.com.",
  sin_consentimiento:
    "Para avisarte necesitamos tu permiso: marca la casilla de que leíste el aviso de privacidad.",
  pieza_no_encontrada: "Producto no encontrado.",
  sin_talla: "Elige la talla que quieres que te avisemos.",
  pieza_disponible: "¡Esta pieza está disponible! Agrégala al carrito.",
  drop_no_activo: "Esta colección ya no está a la venta: no recibe registros para el aviso.",
};

/** What the form shows after any accepted request: nobody learns whether an address was already on the list. */
export const RESTOCK_SIGNED_UP_MESSAGE =
  "¡Listo! Revisa tu correo: te enviamos un enlace para confirmar que quieres el aviso. Si ya lo habías confirmado, no tienes que hacer nada más.";
