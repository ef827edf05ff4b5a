/*
 * The RFC (Registro Federal de Contribuyentes) a CFDI 4.0 is made out to: its shape for a persona
 * física (13 characters: 4 letters, the birth date, 3 of homoclave) and a persona moral (12: 3
 * letters, the date of incorporation, 3 of homoclave), a real date, and the SAT's check digit (the
 * last character). Pure: imports nothing of the shop.
 */

/** A buyer's RFC as the SAT writes it, and whose it is. */
export type RfcKind = "fisica" | "moral";

export type RfcCheck = { ok: true; rfc: string; kind: RfcKind } | { ok: false; message: string };

/** The generic RFCs (público en general, extranjeros): they go on the global invoice, not a buyer's own. */
export const GENERIC_RFCS = ["XAXX010101000", "XEXX010101000"] as const;

/** The SAT's table of values for the check digit: a character's value is its place here. */
const CHECK_TABLE = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ";

const SHAPE = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2})([\dA])$/;

/** Upper case, without spaces, dashes or dots (people copy it as "GODE-561231-GR8"). */
export function normalizeRfc(raw: string): string {
  return raw
    .normalize("NFC")
    .toUpperCase()
    .replace(/[\s.\-_]/g, "");
}

/**
 * The check digit of an RFC's first 12 (persona física) or 11 (persona moral) characters: each
 * character's value times its weight (13 down to 2, a moral's RFC is counted as if it began with a
 * space), summed, modulo 11; 11 minus that, with 11 → "0" and 10 → "A".
 */
export function rfcCheckDigit(body: string): string {
  const padded = body.length === 11 ? ` ${body}` : body;
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    const value = CHECK_TABLE.indexOf(padded[i] ?? "");
    sum += Math.max(value, 0) * (13 - i);
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? "0" : digit === 10 ? "A" : String(digit);
}

function isRealDate(yy: number, mm: number, dd: number): boolean {
  if (mm < 1 || mm > 12 || dd < 1) return false;
  // Two digits of year: 00 is 2000 (leap), and every other multiple of 4 is a leap year either way.
  const leap = yy % 4 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1] ?? 0;
  return dd <= days;
}

/** Checks an RFC as the buyer typed it; the message says in Spanish what is wrong. */
export function checkRfc(raw: string): RfcCheck {
  const rfc = normalizeRfc(raw);
  if (rfc === "") return { ok: false, message: "Escribe tu RFC." };
  if ((GENERIC_RFCS as readonly string[]).includes(rfc)) {
    return {
      ok: false,
      message:
        "Ese es un RFC genérico (público en general o extranjero): para una factura a tu nombre escribe tu propio RFC. Sin factura, tu compra entra en la factura global del mes.",
    };
  }
  if (rfc.length !== 12 && rfc.length !== 13) {
    return {
      ok: false,
      message:
        "El RFC tiene 13 caracteres (persona física) o 12 (persona moral), como aparece en tu Constancia de Situación Fiscal.",
    };
  }
  const match = SHAPE.exec(rfc);
  const letters = match?.[1] ?? "";
  if (!match || letters.length !== rfc.length - 9) {
    return {
      ok: false,
      message:
        rfc.length === 13
          ? "Revisa tu RFC: 4 letras, 6 números de la fecha (AAMMDD) y 3 caracteres de homoclave."
          : "Revisa tu RFC: 3 letras, 6 números de la fecha (AAMMDD) y 3 caracteres de homoclave.",
    };
  }
  if (!isRealDate(Number(match[2]), Number(match[3]), Number(match[4]))) {
    return { ok: false, message: "Revisa tu RFC: la fecha (AAMMDD) no es una fecha válida." };
  }
  if (rfcCheckDigit(rfc.slice(0, -1)) !== rfc.slice(-1)) {
    return {
      ok: false,
      message:
        "Revisa tu RFC: el último carácter (dígito verificador) no corresponde. Cópialo de tu Constancia.",
    };
  }
  return { ok: true, rfc, kind: rfc.length === 13 ? "fisica" : "moral" };
}
