import { SHOP_MONTH_PATTERN } from "~/lib/dates";
import { shopMonth } from "./month-rule";

/** The owner's ?mes=2026-11 (nothing: this month), or the Spanish reason it cannot be read. */
export function parseInvoiceMonth(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; month: string } | { ok: false; month: string; message: string } {
  const month = params.get("mes")?.trim() ?? "";
  if (month === "") return { ok: true, month: shopMonth(now) };
  if (SHOP_MONTH_PATTERN.test(month)) return { ok: true, month };
  return {
    ok: false,
    month: shopMonth(now),
    message: "Mes no válido: usa el formato AAAA-MM (por ejemplo 2026-10).",
  };
}
