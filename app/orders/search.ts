/**
 * Text as the orders desk searches it: lower case, without accents, spaces folded, so 'jose'
 * finds 'José' and 'renata' finds 'Renata Quiroga' on both databases alike.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** What a paid order is found by: its number, its customer's name and e-mail. */
export function orderSearchKey(orderId: string, customerName: string, customerEmail = ""): string {
  return foldForSearch(`${orderId} ${customerName} ${customerEmail}`);
}

/** A LIKE pattern that matches `term` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${foldForSearch(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
