import { outsideShopYears, SHOP_YEARS, shopTimeToInstant } from "~/lib/dates";

/**
 * The 'Publicar' form: `cuando=ahora`, or `cuando=desde` with 'Visible desde' as a date and a
 * time in Mexico City (like the drop's other dates; seconds allowed). `{ visibleFrom: null }`
 * means at once.
 */
export function readPublishForm(
  form: FormData,
): { ok: true; visibleFrom: Date | null } | { ok: false; message: string } {
  const when = form.get("cuando");
  if (when === "ahora") return { ok: true, visibleFrom: null };
  if (when !== "desde") return { ok: false, message: "Elige publicar ahora o desde una fecha." };
  const date = form.get("visibleDate");
  const time = form.get("visibleTime");
  if (typeof date !== "string" || date.trim() === "") {
    return { ok: false, message: "Escribe la fecha de 'Visible desde'." };
  }
  const instant = shopTimeToInstant(
    date.trim(),
    typeof time === "string" && time.trim() ? time.trim() : "00:00",
  );
  if (!instant && outsideShopYears(date)) {
    return {
      ok: false,
      message: `La fecha de 'Visible desde' no es válida: escribe un año de ${SHOP_YEARS.first} a ${SHOP_YEARS.last}.`,
    };
  }
  if (!instant) return { ok: false, message: "La fecha u hora de 'Visible desde' no es válida." };
  return { ok: true, visibleFrom: instant };
}
