/*
 * The mail log's vocabulary, shared by the page and the server: how a queued message stands, the
 * filter in the address (/admin/campains/correos?estado=…&tipo=…&pagina=…) and its Spanish words.
 */

/**
 * pendiente: not sent yet and its last attempt did not fail (waiting, or being sent);
 * enviado: it left; fallido: its last attempt failed (retried later, or given up);
 * descartado: its template no longer wanted it (e.g. the address left the list), nothing went out.
 */
export const MAIL_STATES = ["pendiente", "enviado", "fallido", "descartado"] as const;
export type MailState = (typeof MAIL_STATES)[number];

export const MAIL_STATE_LABELS: Record<MailState, string> = {
  pendiente: "Pendiente",
  enviado: "Enviado",
  fallido: "Falló",
  descartado: "No hizo falta",
};

/** The filter's tabs: their words in the plural. */
export const MAIL_FILTER_LABELS: Record<MailState | "todos", string> = {
  todos: "Todos",
  pendiente: "Pendientes",
  enviado: "Enviados",
  fallido: "Fallidos",
  descartado: "No hicieron falta",
};

/** Messages on one page of the log. */
export const MAIL_LOG_PAGE_SIZE = 50;
const MAX_PAGE = 10_000;

/**
 * Which messages the log shows: all, or only those about an order (a confirmation, a voucher, a
 * shipment, a return), as the administration's notice of order e-mails not gone out links to.
 */
export type MailScope = "pedidos" | null;

export type MailLogQuery =
  | { ok: true; state: MailState | null; scope: MailScope; page: number }
  | { ok: false; message: string };

/** The log's filter and page from the address; a value that is not one of ours is refused, in Spanish. */
export function parseMailLogQuery(params: URLSearchParams): MailLogQuery {
  const estado = params.get("estado") ?? "";
  const pagina = params.get("pagina") ?? "1";
  const state =
    estado === "" || estado === "todos"
      ? null
      : (MAIL_STATES as readonly string[]).includes(estado)
        ? (estado as MailState)
        : undefined;
  if (state === undefined) {
    return { ok: false, message: "Estado: elige Todos, Pendientes, Enviados, Fallidos o No hicieron falta." };
  }
  const tipo = params.get("tipo") ?? "";
  if (tipo !== "" && tipo !== "todos" && tipo !== "pedidos")
    return { ok: false, message: "Tipo: elige Todos o Pedidos." };
  const page = /^\d{1,5}$/.test(pagina) ? Number(pagina) : 0;
  if (page < 1 || page > MAX_PAGE)
    return { ok: false, message: "Página: escribe un número de página válido." };
  return { ok: true, state, scope: tipo === "pedidos" ? "pedidos" : null, page };
}

/** The log's page in Campañas (until it had its own address: /admin/campains?vista=correos). */
export const MAIL_LOG_PATH = "/admin/campains/correos";

/** The address of one view of the log. */
export function mailLogHref(state: MailState | null, page = 1, scope: MailScope = null): string {
  const params = new URLSearchParams();
  if (state) params.set("estado", state);
  if (scope) params.set("tipo", scope);
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return query ? `${MAIL_LOG_PATH}?${query}` : MAIL_LOG_PATH;
}

/** How far back the administration's notice of undelivered order e-mails looks: past the queue's days of retries. */
export const UNDELIVERED_NOTICE_DAYS = 7;
