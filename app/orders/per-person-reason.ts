/*
 * Why an order goes over a drop's 'Máximo N por persona' (decision 29), in the Spanish the owner's
 * desk and the buyer's e-mail show. Pure: per-person.server.ts counts, this says it.
 */

/** What makes two orders one buyer's: the same e-mail, card or shipping address. */
export type BuyerKey = "email_key" | "card_fingerprint" | "address_key";

export const KEY_WORDS: Record<BuyerKey, string> = {
  email_key: "el mismo correo",
  card_fingerprint: "la misma tarjeta",
  address_key: "la misma dirección de envío",
};

/** "a", "a y b", "a, b y c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} y ${words.at(-1)}`;
}

const pieces = (n: number) => (n === 1 ? "1 pieza" : `${n} piezas`);
const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

/**
 * The reason, from the pieces of the drop the buyer already had: `paid` in orders she kept,
 * `waiting` for a voucher (OXXO, SPEI) of hers still unpaid (decision 42).
 */
export function limitReason(input: {
  dropName: string;
  max: number;
  paid: number;
  waiting: number;
  keys: readonly BuyerKey[];
}): string {
  const { dropName, max, paid, waiting } = input;
  const same = joinWords(input.keys.map((k) => KEY_WORDS[k]));
  const limit = `«${dropName}» permite ${max} por persona`;
  if (waiting === 0) return `${limit} y ya había ${pieces(paid)} ${plural(paid, "pagada")} con ${same}.`;
  const voucher = `${plural(waiting, "apartada")} con una ficha de pago sin pagar`;
  const had =
    paid === 0
      ? `${pieces(waiting)} ${voucher}`
      : `${pieces(paid + waiting)}: ${paid} ${plural(paid, "pagada")} y ${waiting} ${voucher}`;
  return `${limit} y con ${same} ya había ${had}.`;
}
