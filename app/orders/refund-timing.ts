import { REFUND_IN_PROGRESS } from "./order";

/*
 * The timing rules every refund the shop owes follows, a cancellation's (refunds.server.ts) and a
 * return's (returns/refund.server.ts) alike: how long a call to the provider holds it, when one in
 * the provider's hands is asked again, and when the owner may record it as made by hand.
 */

/**
 * How long a refund being asked for is held: no other sweep asks it then, and the owner cannot
 * record it as made by hand until that time (and the provider's answer) has passed.
 */
export const ASKING_MS = 2 * 60_000;

/** How long a refund in the provider's hands (accepted, not finished) waits before it is asked again. */
export const IN_PROGRESS_RECHECK_MS = 15 * 60_000;

/** Why the owner may not record a pending refund as made by hand now. */
export type HandRefundRefusal = "en_curso" | "se_pide_ahora" | "sin_respuesta";

/** What the owner reads when 'Ya lo reembolsé a mano' is refused (a 409), for each refusal. */
export const HAND_REFUND_REFUSED: Record<HandRefundRefusal, string> = {
  en_curso:
    "El proveedor de pagos tiene este reembolso en curso: espera a que termine; no lo reembolses a mano.",
  se_pide_ahora:
    "La tienda está pidiendo este reembolso al proveedor en este momento: revisa en unos minutos si se hizo.",
  sin_respuesta:
    "El proveedor de pagos no respondió al último intento y puede que sí lo haya hecho: la tienda le vuelve a preguntar sola. No lo reembolses a mano mientras no conteste.",
};

/** How `last_error` starts when the provider gave no answer: it may have made the refund anyway. */
const NO_ANSWER = "sin respuesta del proveedor: ";

/** A failed call's line, marked as no answer (network, timeout, the provider's own failure). */
export const noAnswerError = (line: string): string => `${NO_ANSWER}${line}`;

/** A no-answer error as the owner reads it after "no respondió": without its mark. */
export const noAnswerDetail = (lastError: string | null): string =>
  (lastError ?? "").startsWith(NO_ANSWER) ? (lastError ?? "").slice(NO_ANSWER.length) : (lastError ?? "");

/** Whether a pending refund's last call got no answer (so nobody knows yet whether it was made). */
export const isNoAnswer = (lastError: string | null): boolean => lastError?.startsWith(NO_ANSWER) ?? false;

/**
 * Whether the owner may record a pending refund as made by hand now: not while the provider has
 * one under way (`en_curso`: it may still make it), nor while it is being asked for or is about to
 * be (`se_pide_ahora`), nor after a call that got no answer (`sin_respuesta`): the money would go
 * twice. When she may, `quietUntil` is what the move
 * itself must check again (a sweep that claims it meanwhile wins).
 */
export function handRefundCheck(
  refund: { lastError: string | null; nextAttemptAt: Date | null },
  now: Date,
): { ok: true; quietUntil: Date } | { ok: false; reason: HandRefundRefusal } {
  if (refund.lastError === REFUND_IN_PROGRESS) return { ok: false, reason: "en_curso" };
  // A call that got no answer may have been made all the same (a timeout after the provider did
  // it): only the provider's next answer, asked with the same key, says. Money given back by hand
  // now could go twice.
  if (isNoAnswer(refund.lastError)) return { ok: false, reason: "sin_respuesta" };
  const quietUntil = new Date(now.getTime() + ASKING_MS);
  if (!refund.nextAttemptAt || refund.nextAttemptAt <= quietUntil)
    return { ok: false, reason: "se_pide_ahora" };
  return { ok: true, quietUntil };
}

/** How long a refund only the owner can make waits before the sweep looks at it again (it asks no one). */
export const BY_HAND_RECHECK_MS = 7 * 24 * 60 * 60_000;

/**
 * Why no provider can make this refund, so the owner must (and then says so with 'Ya lo
 * reembolsé a mano'); null when the running provider can be asked. Cash paid at OXXO cannot be
 * refunded through Stripe (Stripe's OXXO documentation: "Refunds / Partial refunds: No / No"), and
 * a payment taken by a provider the shop no longer runs can only be refunded there.
 */
export function byHandOnly(
  paid: { provider: string; paymentMethod: string | null },
  runningProvider: string,
): string | null {
  if (paid.provider !== runningProvider) return `se pagó con «${paid.provider}»${OTHER_PROVIDER}`;
  if (paid.paymentMethod === "oxxo") return BY_HAND_OXXO;
  return null;
}

const OTHER_PROVIDER = ", que la tienda ya no usa: reembólsalo desde ahí";
const BY_HAND_OXXO =
  "se pagó en efectivo en OXXO, que no admite reembolsos: pídele la CLABE de su cuenta y devuélvele el dinero por transferencia";

/** Whether a pending refund's recorded reason is one of `byHandOnly`'s: nobody but the owner will make it. */
export function isByHandReason(reason: string | null): boolean {
  return reason === BY_HAND_OXXO || (reason?.endsWith(OTHER_PROVIDER) ?? false);
}
