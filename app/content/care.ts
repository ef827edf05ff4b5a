/** How to care for a gold piece: printed on each numbered piece's certificate of authenticity. */
export const CARE_INSTRUCTIONS: readonly string[] = [
  "Guárdala sola, en su bolsa o estuche, para que no se raye con otras piezas.",
  "Póntela después del perfume, la crema y el maquillaje; quítatela para nadar, bañarte o hacer ejercicio.",
  "Evita el cloro y los productos de limpieza: opacan el oro y pueden dañar las piedras.",
  "Límpiala con agua tibia, un poco de jabón neutro y un paño suave; sécala bien antes de guardarla.",
];
