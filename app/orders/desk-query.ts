import { shopTimeToInstant } from "~/lib/dates";
import { safeText } from "~/lib/text";
import { type DeskView, isDeskView } from "./status";

export interface DeskQuery {
  tab: DeskView;
  /** Part of the order number or of the customer's name; case and accents are ignored. */
  search?: string;
  /** Created at or after (inclusive) / before (exclusive). */
  from?: Date | null;
  until?: Date | null;
  /** 1-based. */
  page?: number;
}

/** The orders desk's address parameters: tab, search, date range (Mexico City days) and page. */
export const DESK_PARAMS = {
  tab: "estado",
  search: "q",
  from: "desde",
  until: "hasta",
  page: "pagina",
} as const;

/** What the list says after an order was deleted from its own page (carried in the address). */
export const DESK_NOTICE_PARAM = "aviso";
export const DESK_NOTICES = {
  cancelado: "Pedido cancelado; su reembolso va por el proveedor de pagos y queda en «Cancelados»",
  borrado: "Pedido borrado del historial; su registro queda en «Borrados del historial»",
} as const;

function noticeOf(code: string | null): string | null {
  return code && Object.hasOwn(DESK_NOTICES, code) ? DESK_NOTICES[code as keyof typeof DESK_NOTICES] : null;
}

/** The day after a YYYY-MM-DD date, as YYYY-MM-DD. */
function nextDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

export interface ParsedDeskQuery {
  query: DeskQuery;
  /** What the form shows back, as typed. */
  values: { tab: DeskView; search: string; from: string; until: string };
  /** Spanish messages for parameters that were not understood (and were left out). */
  errors: string[];
  /** A known notice named in the address, e.g. after a delete. */
  notice: string | null;
  /** A parameter that must not reach the database (said in `errors`): nothing is listed, 400. */
  refused: boolean;
}

const searchText = safeText({ label: "Búsqueda" });

/** Reads the desk's parameters from an address; anything not understood is left out and said. */
export function parseDeskQuery(params: URLSearchParams): ParsedDeskQuery {
  const errors: string[] = [];
  const rawTab = params.get(DESK_PARAMS.tab);
  const tab: DeskView = isDeskView(rawTab) ? rawTab : "pendiente";
  // A search with control characters is refused, never sent to the database; long ones are cut.
  const typed = searchText.safeParse(params.get(DESK_PARAMS.search) ?? "");
  if (!typed.success) errors.push(typed.error.issues[0]?.message ?? "");
  const search = typed.success ? typed.data.slice(0, 100) : "";
  const day = (name: string) => {
    const value = (params.get(name) ?? "").trim();
    if (!value) return { value, date: null };
    const date = shopTimeToInstant(value);
    if (!date) errors.push(`La fecha «${value.slice(0, 20)}» no es válida: usa el formato AAAA-MM-DD.`);
    return { value: date ? value : "", date };
  };
  const from = day(DESK_PARAMS.from);
  const until = day(DESK_PARAMS.until);
  const page = Number.parseInt(params.get(DESK_PARAMS.page) ?? "1", 10);
  return {
    query: {
      tab,
      search,
      from: from.date,
      until: until.date ? shopTimeToInstant(nextDay(until.value)) : null,
      page: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1,
    },
    values: { tab, search, from: from.value, until: until.value },
    errors,
    notice: noticeOf(params.get(DESK_NOTICE_PARAM)),
    refused: !typed.success,
  };
}

/** The address of the desk with these values (empty ones left out). */
export function deskSearch(values: Partial<ParsedDeskQuery["values"]> & { page?: number }): string {
  const params = new URLSearchParams();
  if (values.tab) params.set(DESK_PARAMS.tab, values.tab);
  if (values.search) params.set(DESK_PARAMS.search, values.search);
  if (values.from) params.set(DESK_PARAMS.from, values.from);
  if (values.until) params.set(DESK_PARAMS.until, values.until);
  if (values.page && values.page > 1) params.set(DESK_PARAMS.page, String(values.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}
