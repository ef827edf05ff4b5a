import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { DROP_TIME_LABELS } from "~/catalogue/drop-time";
import { PUBLICATION_LABELS, type Publication } from "~/catalogue/publishing";
import { ConfirmDialog } from "~/components/admin/modal";
import { RouteError } from "~/components/route-error";
import type { DropStatus } from "~/db/taxonomy";
import { listAdminDrops } from "~/drops-desk/list.server";
import { formatShopDateTime } from "~/lib/dates";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/list";

/** Each tab lists the drops `adminTab` puts there (decision 38), from status and dates. */
const STATUS_OF_PATH: Record<string, DropStatus> = {
  "/admin/drops": "activa",
  "/admin/drops/show-active-drops": "activa",
  "/admin/drops/show-upcoming-drops": "proximamente",
  "/admin/drops/show-archive-drops": "archivada",
};

/** How long before its opening a drop offers 'Apertura en vivo'. */
const LIVE_BEFORE_MS = 3_600_000;

const TITLES: Record<DropStatus, string> = {
  activa: "Activas",
  proximamente: "Próximas",
  archivada: "Archivadas",
};

/** What the list says after a redirect (carried in the address as `aviso`). */
const NOTICES: Record<string, { text: string; alert?: boolean }> = {
  creado: { text: "Drop creado exitosamente" },
  eliminado: { text: "Colección eliminada" },
  "no-encontrado": { text: "Drop no encontrado.", alert: true },
};

/** The badge beside the time state of a drop the public does not see yet. */
const PUBLICATION_BADGES: Partial<Record<Publication, string>> = {
  borrador: PUBLICATION_LABELS.borrador,
  programada: PUBLICATION_LABELS.programada,
};

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Colecciones ${loaderData?.title ?? ""} · Administración` },
];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const status = STATUS_OF_PATH[args.url.pathname.replace(/\/+$/, "")] ?? "activa";
  const { database } = args.context.get(servicesContext);
  const now = Date.now();
  // A drop running, or opening within the hour, can be watched live (routes/admin/drops/opening.tsx).
  const drops = (await listAdminDrops(database.db, status)).map((drop) => ({
    ...drop,
    badge: PUBLICATION_BADGES[drop.publication] ?? null,
    live:
      drop.timeState === "running" ||
      (drop.timeState === "pending" && drop.startAt.getTime() - now <= LIVE_BEFORE_MS),
  }));
  const code = args.url.searchParams.get("aviso") ?? "";
  return {
    title: TITLES[status],
    drops,
    notice: Object.hasOwn(NOTICES, code) ? (NOTICES[code] ?? null) : null,
  };
}

export const action = pageTakesNoForm;

export default function DropsList({ loaderData }: Route.ComponentProps) {
  const { drops, notice, title } = loaderData;
  const fetcher = useFetcher<{ ok: boolean; message: string }>({ key: "drops-desk" });
  const [confirming, setConfirming] = useState<{ id: string; name: string } | null>(null);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const status = answer?.ok ? answer.message : answer ? "" : notice && !notice.alert ? notice.text : "";
  const failed = answer && !answer.ok ? answer.message : notice?.alert ? notice.text : "";
  return (
    <div>
      <h2 className="sr-only">{title}</h2>
      <p
        role="status"
        className={status ? "mt-4 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900" : ""}
      >
        {status}
      </p>
      <p role="alert" className={failed ? "mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800" : ""}>
        {failed}
      </p>
      {drops.length === 0 ? (
        <p className="mt-8 text-ink/75">No hay colecciones en esta sección.</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {drops.map((drop) => (
            <li key={drop.id}>
              <article aria-label={drop.name} className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-serif text-xl">{drop.name}</h3>
                  <span className="flex flex-wrap gap-2">
                    {drop.badge && (
                      <span className="rounded-full border border-ink px-3 py-1 text-xs font-medium">
                        {drop.badge}
                      </span>
                    )}
                    <span className="rounded-full bg-sand px-3 py-1 text-xs font-medium">
                      {DROP_TIME_LABELS[drop.timeState]}
                    </span>
                  </span>
                </div>
                {drop.publication === "programada" && drop.visibleFrom && (
                  <p className="mt-1 text-sm text-ink/75">
                    Visible desde el {formatShopDateTime(drop.visibleFrom)}
                  </p>
                )}
                <p className="mt-1 text-sm text-ink/75">
                  Del {formatShopDateTime(drop.startAt)} al {formatShopDateTime(drop.endAt)}
                </p>
                <p className="text-sm text-ink/75">
                  {drop.products === 1 ? "1 producto" : `${drop.products} productos`} ·{" "}
                  {drop.pieces === 1 ? "1 pieza en stock" : `${drop.pieces} piezas en stock`}
                </p>
                <div className="mt-4 flex flex-wrap gap-2">
                  <Link
                    to={`/admin/drops/edit-drop/${drop.id}`}
                    className="min-h-11 content-center rounded-full bg-ink px-5 text-sm font-medium text-cream"
                  >
                    Editar
                  </Link>
                  {drop.live ? (
                    <Link
                      to={`/admin/drops/${drop.id}/apertura`}
                      className="min-h-11 content-center rounded-full border border-ink px-5 text-sm font-medium"
                    >
                      Apertura en vivo
                    </Link>
                  ) : null}
                  {drop.status !== "archivada" && drop.timeState === "ended" ? (
                    <fetcher.Form method="post" action={`/admin/drops/edit-drop/${drop.id}`}>
                      <input type="hidden" name="intent" value="archivar" />
                      <button
                        type="submit"
                        className="min-h-11 rounded-full border border-ink px-5 text-sm font-medium"
                      >
                        Archivar
                      </button>
                    </fetcher.Form>
                  ) : null}
                  <button
                    type="button"
                    onClick={() => setConfirming({ id: drop.id, name: drop.name })}
                    className="min-h-11 rounded-full border border-red-800 px-5 text-sm text-red-800"
                  >
                    Eliminar
                  </button>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`¿Eliminar la colección ${confirming?.name ?? ""}?`}
        confirmLabel="Eliminar colección"
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) {
            void fetcher.submit(
              { intent: "eliminar" },
              { method: "post", action: `/admin/drops/edit-drop/${confirming.id}` },
            );
          }
          setConfirming(null);
        }}
      >
        <p>
          La colección se eliminará con sus productos, fotos y video, y esta acción no se puede deshacer. Los
          pedidos ya pagados se conservan.
        </p>
      </ConfirmDialog>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Colecciones" message="Ocurrió un error al cargar las colecciones." />;
}
