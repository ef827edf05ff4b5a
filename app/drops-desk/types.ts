/*
 * The drops desk: the owner creates, edits and deletes drops. Photos are uploaded first (under the
 * drop's folder, before the drop exists) and the form names them by id; the desk checks that they
 * are the drop's own, and deletes the files of photos a save leaves unused.
 */

export type DropRefusal = {
  ok: false;
  reason:
    | "no_encontrado"
    | "ya_existe"
    | "version"
    | "medios_invalidos"
    | "stock_cambio"
    | "stock_maximo"
    | "edicion_numerada"
    | "producto_ajeno"
    | "producto_apartado"
    | "pago_pendiente";
  message: string;
};
export type DropResult<T = object> = ({ ok: true } & T) | DropRefusal;

/** Thrown inside a save's transaction to roll it back with a refusal; never leaves the desk. */
export class Refused extends Error {
  constructor(readonly refusal: DropRefusal) {
    super(refusal.message);
  }
}

/** Throws the refusal (see `Refused`). */
export function refuse(reason: DropRefusal["reason"], message: string): never {
  throw new Refused({ ok: false, reason, message });
}
