import { type Carrier, OTHER_CARRIER } from "~/settings/carriers";
import { isOrderId } from "./ids";
import { INVALID_TRACKING, TRACKING_NUMBER } from "./shipment-input";

/*
 * 'Atender seleccionados' (several orders shipped at once, one carrier for all): what the owner
 * sent, read and checked before anything touches the database. The lines come from a pasted or
 * uploaded CSV of "pedido,guía" (header optional; comma, semicolon or tab), or from the tracking
 * field of each selected order. Every problem is told, each by its line (or its order), in Spanish.
 */

/** The most orders one batch ships: a drop day's worth, in one transaction. */
export const BULK_SHIP_LIMIT = 200;

/** One order to ship; `line` is its line in the CSV (1-based) or its place in the selection. */
export interface BulkShipLine {
  line: number;
  orderId: string;
  trackingNumber: string;
}

/** A problem with one line (its order, when known), or with the whole batch (line 0). */
export interface BulkShipProblem {
  line: number;
  orderId: string;
  message: string;
}

/** The lines read, and every problem found; only lines without a problem are in `lines`. */
export interface BulkShipLines {
  lines: BulkShipLine[];
  problems: BulkShipProblem[];
}

/** A cell as spreadsheets write it: quotes around it dropped. */
function cell(value: string | undefined): string {
  const trimmed = (value ?? "").trim();
  return (
    trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
      ? trimmed.slice(1, -1).replace(/""/g, '"')
      : trimmed
  ).trim();
}

/** Checks lines already split into order and tracking: shape, tracking, duplicates, the cap. */
export function checkBulkLines(lines: readonly BulkShipLine[]): BulkShipLines {
  if (lines.length === 0) {
    return {
      lines: [],
      problems: [
        { line: 0, orderId: "", message: "No hay pedidos que atender: pega o sube líneas «pedido,guía»." },
      ],
    };
  }
  if (lines.length > BULK_SHIP_LIMIT) {
    return {
      lines: [],
      problems: [
        {
          line: 0,
          orderId: "",
          message: `Son ${lines.length} pedidos; atiende como máximo ${BULK_SHIP_LIMIT} a la vez.`,
        },
      ],
    };
  }
  const problems: BulkShipProblem[] = [];
  const good: BulkShipLine[] = [];
  const seen = new Map<string, number>();
  for (const { line, orderId, trackingNumber } of lines) {
    const problem = (message: string) => problems.push({ line, orderId, message });
    if (!orderId) {
      problem("falta el número de pedido.");
      continue;
    }
    if (!isOrderId(orderId)) {
      problem(`«${orderId.slice(0, 30)}» no es un número de pedido (se ven como OL-ABCD2345).`);
      continue;
    }
    const first = seen.get(orderId);
    if (first !== undefined) {
      problem(`el pedido ${orderId} ya está en la línea ${first}.`);
      continue;
    }
    seen.set(orderId, line);
    if (!trackingNumber) problem(`falta el número de guía del pedido ${orderId}.`);
    else if (!TRACKING_NUMBER.test(trackingNumber)) problem(INVALID_TRACKING);
    else good.push({ line, orderId, trackingNumber });
  }
  return { lines: good, problems };
}

/** Reads a CSV of "pedido,guía" lines; blank lines are skipped but keep the numbering. */
export function parseBulkCsv(text: string): BulkShipLines {
  const rows = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const lines: BulkShipLine[] = [];
  const problems: BulkShipProblem[] = [];
  let first = true;
  rows.forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    const cells = raw.split(/[,;\t]/).map(cell);
    const orderId = (cells[0] ?? "").toUpperCase();
    const wasFirst = first;
    first = false;
    // A header names its columns ("pedido,guía"); an order number never looks like one.
    if (wasFirst && !isOrderId(orderId) && /pedido|orden|order/i.test(cells[0] ?? "")) return;
    if (cells.slice(2).some((c) => c !== "")) {
      problems.push({
        line,
        orderId: isOrderId(orderId) ? orderId : "",
        message: "sobran columnas: cada línea lleva «pedido,guía».",
      });
      return;
    }
    lines.push({ line, orderId, trackingNumber: cells[1] ?? "" });
  });
  if (lines.length === 0 && problems.length > 0) return { lines, problems };
  const checked = checkBulkLines(lines);
  return {
    lines: checked.lines,
    problems: [...problems, ...checked.problems].sort((a, b) => a.line - b.line),
  };
}

/** A problem as the owner reads it: by CSV line, or by order when the lines were the selection. */
export function problemText(problem: BulkShipProblem, source: "csv" | "seleccion"): string {
  if (problem.line === 0) return problem.message;
  if (source === "csv") return `Línea ${problem.line}: ${problem.message}`;
  // The message names its order already ("falta el número de guía del pedido OL-…"): said as is.
  if (problem.orderId && problem.message.includes(problem.orderId)) {
    return problem.message.charAt(0).toUpperCase() + problem.message.slice(1);
  }
  return `Pedido ${problem.orderId || problem.line}: ${problem.message}`;
}

/** The one carrier of a batch: from Configuración's list, or 'Otra' with its name. */
export function bulkCarrier(
  carriers: readonly Carrier[],
  chosen: string,
  other: string,
): { ok: true; carrier: string } | { ok: false; message: string } {
  const carrier = (chosen === OTHER_CARRIER ? other : chosen).trim();
  if (!carrier) return { ok: false, message: "Elige la paquetería de estos envíos." };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(carrier)) {
    return { ok: false, message: "La paquetería tiene caracteres no permitidos." };
  }
  if (chosen !== OTHER_CARRIER && !carriers.some((c) => c.name === chosen)) {
    return { ok: false, message: "Elige una paquetería de la lista, u 'Otra'." };
  }
  if (carrier.length > 60) {
    return { ok: false, message: "El nombre de la paquetería no es válido (máximo 60 caracteres)." };
  }
  return { ok: true, carrier };
}
