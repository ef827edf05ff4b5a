import { useEffect, useMemo, useState } from "react";
import { Link, redirect } from "react-router";
import { DROP_TIME_LABELS } from "~/catalogue/drop-time";
import { OpeningChart } from "~/components/admin/opening-chart";
import { RouteError } from "~/components/route-error";
import { type OpeningSnapshot, openingSnapshot } from "~/drops-desk/live-opening.server";
import { formatShopDateTime } from "~/lib/dates";
import { bucketsBetween, histogramQuantile } from "~/lib/histogram";
import { isId } from "~/lib/ids";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/opening";

/** How often the page reads the figures, and how far back its per-second figures go. */
const EVERY_MS = 1_000;
const WINDOW_MS = 60_000;

/** The reasons a checkout is refused, as the owner reads them. */
const REASONS: Record<string, string> = {
  sin_stock: "Sin piezas",
  coleccion_cerrada: "Colección cerrada",
  limite_coleccion: "Máximo por persona",
  limite_piezas: "Demasiadas piezas de un producto",
  limite_total: "Demasiadas piezas en el pedido",
  pago_en_curso: "Ya tiene un pago en curso",
  pago_no_disponible: "Pago no disponible",
  ya_apartada: "Ya tenía esas piezas apartadas",
  limite_conexion: "Piezas por conexión",
  agotado: "Se acabaron en la fila",
  no_encontrado: "Pieza no encontrada",
  carrito_vacio: "Carrito vacío",
  limite: "Límite de solicitudes",
  verificacion: "Verificación no válida",
  solicitud: "Solicitud no válida",
  otro: "Otro motivo",
};

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Apertura en vivo · ${loaderData?.snapshot.drop.name ?? "Colección"} · Administración` },
];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const snapshot = isId(args.params.dropId) ? await openingSnapshot(database.db, args.params.dropId) : null;
  if (!snapshot) throw redirect("/admin/drops?aviso=no-encontrado");
  return { snapshot };
}

export const action = pageTakesNoForm;

const integer = new Intl.NumberFormat("es-MX");
const perSecond = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const milliseconds = (seconds: number | null) =>
  seconds === null ? "—" : `${integer.format(Math.round(seconds * 1000))} ms`;

/** Counters of one snapshot, by name: started, held, queued, paid, refused:<reason>. */
function counters(snapshot: OpeningSnapshot): Map<string, number> {
  const figures = snapshot.figures;
  const map = new Map<string, number>();
  if (!figures) return map;
  map.set("started", figures.started);
  map.set("held", figures.held);
  map.set("queued", figures.queued);
  map.set("paid", figures.paid);
  let refused = 0;
  for (const [reason, count] of Object.entries(figures.refused)) {
    map.set(`refused:${reason}`, count);
    refused += count;
  }
  map.set("refused", refused);
  return map;
}

/** Counted between two snapshots: a counter that went down started again (a process replaced). */
function delta(before: OpeningSnapshot, after: OpeningSnapshot, name: string): number {
  const a = counters(before).get(name) ?? 0;
  const b = counters(after).get(name) ?? 0;
  return b >= a ? b - a : b;
}

/** Per second between two snapshots. */
function rate(before: OpeningSnapshot, after: OpeningSnapshot, name: string): number {
  const seconds = (after.at - before.at) / 1000;
  return seconds > 0 ? delta(before, after, name) / seconds : 0;
}

function p99(before: OpeningSnapshot | undefined, after: OpeningSnapshot): number | null {
  if (!after.figures) return null;
  const buckets = bucketsBetween(before?.figures?.answerBuckets ?? null, after.figures.answerBuckets);
  const total = after.figures.answers - (before?.figures?.answers ?? 0);
  return histogramQuantile(0.99, buckets, total >= 0 ? total : after.figures.answers);
}

export default function LiveOpening({ loaderData, params }: Route.ComponentProps) {
  // The snapshots of the last minute, oldest first.
  const [history, setHistory] = useState<OpeningSnapshot[]>([loaderData.snapshot]);
  const [offline, setOffline] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const res = await fetch(`/admin/drops/${params.dropId}/apertura/datos`, {
          headers: { accept: "application/json" },
          cache: "no-store",
        });
        if (!res.ok) throw new Error(String(res.status));
        const snapshot = (await res.json()) as OpeningSnapshot;
        if (stopped) return;
        setOffline(false);
        setHistory((list) => [...list, snapshot].filter((s) => s.at >= snapshot.at - WINDOW_MS - EVERY_MS));
      } catch {
        if (!stopped) setOffline(true);
      } finally {
        if (!stopped) timer = setTimeout(read, EVERY_MS);
      }
    };
    timer = setTimeout(read, EVERY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [params.dropId]);

  const latest = history[history.length - 1] ?? loaderData.snapshot;
  const previous = history.length > 1 ? history[history.length - 2] : undefined;
  const oldest = history[0] ?? latest;
  const now = counters(latest);
  const reasons = Object.keys(latest.figures?.refused ?? {}).sort();
  const rows: { key: string; label: string }[] = [
    { key: "started", label: "Iniciados" },
    { key: "held", label: "Apartaron" },
    { key: "queued", label: "A la fila" },
    { key: "refused", label: "Rechazados" },
    ...reasons.map((reason) => ({
      key: `refused:${reason}`,
      label: `Rechazados: ${REASONS[reason] ?? reason}`,
    })),
    { key: "paid", label: "Pagados" },
  ];
  const totals = latest.pieces.reduce(
    (sum, p) => ({ held: sum.held + p.held, sold: sum.sold + p.sold, left: sum.left + p.left }),
    { held: 0, sold: 0, left: 0 },
  );
  // One point per read: what happened per second since the one before.
  const series = useMemo(() => {
    const points = history.slice(1).map((snapshot, i) => {
      const before = history[i] as OpeningSnapshot;
      return {
        at: snapshot.at,
        started: rate(before, snapshot, "started"),
        refused: rate(before, snapshot, "refused"),
        paid: rate(before, snapshot, "paid"),
      };
    });
    return points;
  }, [history]);
  const { drop } = latest;

  return (
    <div>
      <p className="text-sm">
        <Link to="/admin/drops" className="underline">
          Colecciones
        </Link>
      </p>
      <h2 className="mt-2 font-serif text-3xl">Apertura en vivo: {drop.name}</h2>
      <p className="mt-1 text-sm text-ink/75">
        {DROP_TIME_LABELS[drop.timeState]} · del {formatShopDateTime(new Date(drop.startAt))} al{" "}
        {formatShopDateTime(new Date(drop.endAt))} · se actualiza cada segundo
      </p>
      <p role="status" className={offline ? "mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800" : ""}>
        {offline ? "Sin conexión con la tienda: se reintenta cada segundo." : ""}
      </p>
      {latest.figures === null ? (
        <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm">
          Las cifras de los checkouts no están disponibles en este momento.
        </p>
      ) : null}

      <section aria-labelledby="piezas" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h3 id="piezas" className="font-serif text-xl">
          Piezas
        </h3>
        <p className="mt-1 text-sm">
          Personas en la fila: <strong data-testid="en-fila">{integer.format(latest.inLine)}</strong>
        </p>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-sand">
                <th scope="col" className="py-2 pr-4">
                  Pieza
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Apartadas
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Vendidas
                </th>
                <th scope="col" className="py-2 text-right">
                  Quedan
                </th>
              </tr>
            </thead>
            <tbody>
              {latest.pieces.map((p) => (
                <tr key={p.productId} className="border-b border-sand/60">
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {p.name}
                  </th>
                  <td className="py-2 pr-4 text-right tabular-nums">{integer.format(p.held)}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{integer.format(p.sold)}</td>
                  <td className="py-2 text-right tabular-nums">{integer.format(p.left)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" className="py-2 pr-4">
                  Total
                </th>
                <td className="py-2 pr-4 text-right font-medium tabular-nums">
                  {integer.format(totals.held)}
                </td>
                <td className="py-2 pr-4 text-right font-medium tabular-nums">
                  {integer.format(totals.sold)}
                </td>
                <td className="py-2 text-right font-medium tabular-nums">{integer.format(totals.left)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>

      <section aria-labelledby="checkouts" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h3 id="checkouts" className="font-serif text-xl">
          Checkouts
        </h3>
        <OpeningChart points={series} />
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-sand">
                <th scope="col" className="py-2 pr-4">
                  Checkouts
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Por segundo
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Último minuto
                </th>
                <th scope="col" className="py-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} className="border-b border-sand/60">
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {row.label}
                  </th>
                  <td className="py-2 pr-4 text-right tabular-nums">
                    {previous ? perSecond.format(rate(previous, latest, row.key)) : "—"}
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums">
                    {integer.format(delta(oldest, latest, row.key))}
                  </td>
                  <td className="py-2 text-right tabular-nums">{integer.format(now.get(row.key) ?? 0)}</td>
                </tr>
              ))}
              <tr>
                <th scope="row" className="py-2 pr-4 font-normal">
                  p99 de respuesta
                </th>
                <td className="py-2 pr-4 text-right tabular-nums">
                  {previous ? milliseconds(p99(previous, latest)) : "—"}
                </td>
                <td className="py-2 pr-4 text-right tabular-nums">
                  {milliseconds(p99(oldest === latest ? undefined : oldest, latest))}
                </td>
                <td className="py-2 text-right tabular-nums">{milliseconds(p99(undefined, latest))}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="mt-3 text-xs text-ink/75">
          Las cifras de checkouts y respuestas son las de toda la tienda (todos sus procesos) desde que
          arrancó; la p99 cuenta las respuestas a compradores (páginas, API y checkouts).
        </p>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Apertura en vivo" message="Ocurrió un error al cargar la apertura." />;
}
