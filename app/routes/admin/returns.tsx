import { data, Link } from "react-router";
import { ReturnCard } from "~/components/admin/return-card";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { RouteError } from "~/components/route-error";
import type { ReturnStatus } from "~/db/schema";
import { HAND_REFUND_REFUSED } from "~/orders/refund-timing";
import { closeReturn, decideReturn } from "~/returns/decide.server";
import { countReturnsByStatus, getReturn, listReturns } from "~/returns/queries.server";
import {
  claimForAsking,
  markReturnRefundedByHand,
  type ReturnRefundOutcome,
  receiveReturn,
  refundReturn,
} from "~/returns/refund.server";
import { readOwnerMessage } from "~/returns/return-input";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/returns";

/*
 * 'Devoluciones' (decision 48): the buyers' return requests, by where they stand. The owner
 * accepts (saying where to send the pieces) or declines (saying why); on receiving the pieces she
 * counts those that arrived, chooses which go back to stock and refunds the price of what arrived
 * through the payment provider.
 */

export const meta: Route.MetaFunction = () => [{ title: "Devoluciones · Administración" }];

const TABS = [
  { key: "solicitada", label: "Por responder", statuses: ["solicitada"] },
  { key: "aceptada", label: "Esperando piezas", statuses: ["aceptada"] },
  { key: "recibida", label: "Reembolso en curso", statuses: ["recibida"] },
  { key: "cerradas", label: "Cerradas", statuses: ["reembolsada", "rechazada", "cerrada"] },
] as const satisfies readonly { key: string; label: string; statuses: readonly ReturnStatus[] }[];

type TabKey = (typeof TABS)[number]["key"];

function tabOf(value: string | null) {
  return TABS.find((t) => t.key === value) ?? TABS[0];
}

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const tab = tabOf(new URL(args.request.url).searchParams.get("vista"));
  const [returns, counts] = await Promise.all([
    listReturns(database.db, { statuses: tab.statuses }),
    countReturnsByStatus(database.db),
  ]);
  const count = (statuses: readonly ReturnStatus[]) => statuses.reduce((sum, s) => sum + counts[s], 0);
  return {
    tab: tab.key as TabKey,
    returns,
    counts: Object.fromEntries(TABS.map((t) => [t.key, count(t.statuses)])),
  };
}

/** `line`: the order line whose count of pieces arrived was refused (its field is marked). */
/** `intent`: the form it answers (its error is shown there). */
type ActionAnswer = { ok: boolean; message: string; returnId: string; intent: string; line?: number };

const REFUND_MESSAGES: Record<ReturnRefundOutcome, { ok: boolean; text: string }> = {
  reembolsado: { ok: true, text: "Reembolso hecho; le avisamos por correo." },
  en_curso: {
    ok: true,
    text: "El proveedor aceptó el reembolso y lo está procesando; te avisamos aquí cuando termine.",
  },
  fallido: {
    ok: false,
    text: "No hubo respuesta del proveedor de pagos: el reembolso se reintenta solo en unos minutos.",
  },
  rechazado: {
    ok: false,
    text: "El proveedor de pagos no hizo el reembolso; revisa el detalle y reintenta.",
  },
  a_mano: {
    ok: true,
    text: "El proveedor de pagos no puede hacer este reembolso (pago en efectivo en OXXO, u otro proveedor): devuélvele el dinero tú y márcalo con 'Ya lo reembolsé a mano'.",
  },
  sin_reembolso: { ok: false, text: "Esta devolución no tiene reembolso pendiente." },
};

/** The numbered pieces that came back, by order line, from the checkboxes `numero-<line>`. */
function returnedNumbers(form: FormData): Map<number, number[]> {
  const numbers = new Map<number, number[]>();
  for (const [name, value] of form) {
    const line = /^numero-(\d{1,4})$/.exec(name);
    const number = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : null;
    if (!line || number === null) continue;
    const position = Number(line[1]);
    numbers.set(position, [...(numbers.get(position) ?? []), number]);
  }
  return numbers;
}

/**
 * The pieces that arrived, by order line, from the fields `llegaron-<line>`; a count that is not a
 * whole number is kept as NaN, which the return refuses in words.
 */
function receivedCounts(form: FormData): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [name, value] of form) {
    const line = /^llegaron-(\d{1,4})$/.exec(name);
    if (!line) continue;
    const text = typeof value === "string" ? value.trim() : "";
    counts.set(Number(line[1]), /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN);
  }
  return counts;
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, payments, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  const returnId = String(form?.get("devolucion") ?? "");
  const intent = String(form?.get("intent") ?? "");
  const answer = (status: number, ok: boolean, message: string, line?: number) =>
    data<ActionAnswer>(
      { ok, message, returnId, intent: intent.slice(0, 20), ...(line === undefined ? {} : { line }) },
      { status, headers: { "Cache-Control": "no-store" } },
    );
  if (!/^DV-[A-Z0-9]{8}$/.test(returnId)) return answer(404, false, "La devolución no existe.");
  if (intent === "aceptar" || intent === "rechazar") {
    const decision = intent === "aceptar" ? "accept" : "decline";
    const message = readOwnerMessage(form, decision);
    if (!message.ok) return answer(400, false, message.error);
    const result = await decideReturn(database.db, returnId, decision, message.message);
    if (!result.ok) {
      return result.reason === "no_encontrada"
        ? answer(404, false, "La devolución no existe.")
        : answer(409, false, "Esta devolución ya tenía respuesta: recarga la página.");
    }
    mail.sendSoon();
    return answer(
      200,
      true,
      decision === "accept"
        ? "Devolución aceptada; le avisamos por correo."
        : "Devolución rechazada; le avisamos por correo.",
    );
  }
  if (intent === "cerrar") {
    const message = readOwnerMessage(form, "close");
    if (!message.ok) return answer(400, false, message.error);
    const result = await closeReturn(database.db, returnId, message.message);
    if (!result.ok) {
      return result.reason === "no_encontrada"
        ? answer(404, false, "La devolución no existe.")
        : answer(409, false, "Esta devolución no está esperando piezas: recarga la página.");
    }
    mail.sendSoon();
    return answer(200, true, "Devolución cerrada sin reembolso; le avisamos por correo.");
  }
  if (intent === "recibir") {
    const restock = (form?.getAll("inventario") ?? [])
      .map((v) => Number(v))
      .filter((n) => Number.isInteger(n) && n >= 0);
    const received = form ? receivedCounts(form) : new Map<number, number>();
    const numbers = form ? returnedNumbers(form) : new Map<number, number[]>();
    const result = await receiveReturn(database.db, payments, returnId, { received, restock, numbers });
    if (!result.ok) {
      if (result.reason === "no_encontrada") return answer(404, false, "La devolución no existe.");
      if (result.reason === "no_aceptada")
        return answer(409, false, "Esta devolución no está esperando piezas: recarga la página.");
      if (result.reason === "nada_recibido")
        return answer(
          400,
          false,
          "No llegó ninguna pieza: regístralas cuando lleguen, o escríbele a la clienta.",
        );
      const position = "position" in result ? result.position : -1;
      const line = (await getReturn(database.db, returnId))?.lines.find((l) => l.position === position);
      if (result.reason === "numeros")
        return answer(
          400,
          false,
          line
            ? `Marca qué piezas numeradas de «${line.name}» llegaron (sus certificados): tantas como piezas llegaron.`
            : "Marca qué piezas numeradas llegaron.",
          position,
        );
      return answer(
        400,
        false,
        line
          ? `Indica cuántas piezas de «${line.name}» llegaron: un número de 0 a ${line.asked}.`
          : "Indica cuántas piezas llegaron de cada línea.",
        position,
      );
    }
    mail.sendSoon();
    const said = REFUND_MESSAGES[result.outcome];
    // The pieces are recorded as received whatever the provider said: the refund is retried.
    return answer(200, said.ok, `Piezas recibidas. ${said.text}`);
  }
  if (intent === "reintentar") {
    // Held while it is asked: the sweep leaves it, and 'Ya lo reembolsé a mano' waits for the answer.
    await claimForAsking(database.db, returnId, new Date());
    const outcome = await refundReturn(database.db, payments, returnId);
    mail.sendSoon();
    const said = REFUND_MESSAGES[outcome];
    return answer(outcome === "sin_reembolso" ? 409 : 200, said.ok, said.text);
  }
  if (intent === "amano") {
    const outcome = await markReturnRefundedByHand(database.db, returnId);
    if (outcome === "sin_reembolso") return answer(409, false, REFUND_MESSAGES.sin_reembolso.text);
    if (outcome !== "reembolsado") return answer(409, false, HAND_REFUND_REFUSED[outcome]);
    mail.sendSoon();
    return answer(200, true, "Registrado como reembolsado a mano; le avisamos por correo.");
  }
  return answer(400, false, "Acción no reconocida.");
}

export default function AdminReturns({ loaderData, actionData }: Route.ComponentProps) {
  // The view from the loader (not useSearchParams: that hook would join every page's shared React
  // Router file, the storefront's JavaScript budget).
  const vista = loaderData.tab;
  return (
    <main>
      <h1 className="font-serif text-3xl">Devoluciones</h1>
      <p className="mt-1 text-sm text-ink/75">
        Las clientas piden devoluciones desde Mi pedido, dentro de 5 días hábiles desde la entrega.
      </p>
      <nav aria-label="Vistas de devoluciones" className="mt-4 flex flex-wrap gap-2">
        {TABS.map((t) => (
          <Link
            key={t.key}
            to={`?vista=${t.key}`}
            aria-current={vista === t.key ? "page" : undefined}
            className="rounded-full bg-sand/60 px-4 py-2 text-sm aria-[current=page]:bg-ink aria-[current=page]:text-cream"
          >
            {t.label} ({loaderData.counts[t.key] ?? 0})
          </Link>
        ))}
      </nav>
      {actionData && (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={`mt-4 text-sm ${actionData.ok ? "" : "text-red-900"}`}
        >
          {actionData.returnId && `${actionData.returnId}: `}
          {actionData.message}
        </p>
      )}
      {loaderData.returns.length === 0 ? (
        <p className="mt-8 text-ink/75">No hay devoluciones aquí.</p>
      ) : (
        <ul className="mt-6 space-y-6">
          {loaderData.returns.map((r) => (
            <ReturnCard
              key={r.id}
              view={r}
              refused={actionData && !actionData.ok && actionData.returnId === r.id ? actionData : null}
            />
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Devolución no encontrada" message="No pudimos mostrar las devoluciones." />
  );
}
