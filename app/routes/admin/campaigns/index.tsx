import { data, Form, Link, useFetcher } from "react-router";
import {
  MAIL_FILTER_LABELS,
  MAIL_STATE_LABELS,
  MAIL_STATES,
  type MailState,
  mailLogHref,
  parseMailLogQuery,
} from "~/campaigns/mail-log";
import { countMailByState, listMailLog } from "~/campaigns/mail-log.server";
import { queueTestEmail, renderOpeningEmail } from "~/campaigns/opening-email.server";
import { SIGN_UP_STATUS_LABELS } from "~/campaigns/waitlist-csv";
import { campaignDrop, listSignUps, SIGN_UPS_SHOWN, upcomingCampaigns } from "~/campaigns/waitlists.server";
import { RouteError } from "~/components/route-error";
import { requireAdmin } from "~/lib/admin-guards.server";
import { formatShopDateTime } from "~/lib/dates";
import { isId } from "~/lib/ids";
import { shopOrigin } from "~/lib/origin.server";
import { mailKindLabel } from "~/mail/kinds";
import { retryFailedEmail } from "~/mail/queue.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [{ title: "Campañas · Administración" }];

/**
 * Campañas (decision 25): per upcoming drop its 'Avísame' list and opening e-mail (?drop=…), and
 * the shop's mail log (?vista=correos&estado=…&pagina=…).
 */
export async function loader(args: Route.LoaderArgs) {
  const admin = requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const db = database.db;
  const params = args.url.searchParams;
  const vista = params.get("vista") ?? "avisame";

  if (vista === "correos") {
    const query = parseMailLogQuery(params);
    const counts = await countMailByState(db);
    if (!query.ok) {
      return data(
        {
          view: "correos" as const,
          state: null,
          page: 1,
          entries: [],
          more: false,
          counts,
          error: query.message,
        },
        { status: 400 },
      );
    }
    const { entries, more } = await listMailLog(db, query);
    return {
      view: "correos" as const,
      state: query.state,
      page: query.page,
      entries,
      more,
      counts,
      error: null,
    };
  }
  if (vista !== "avisame") throw new Response("Sección no encontrada", { status: 404 });

  const now = new Date();
  const drops = await upcomingCampaigns(db, now);
  const wanted = params.get("drop");
  const selected = wanted ? (isId(wanted) ? await campaignDrop(db, wanted) : null) : (drops[0] ?? null);
  if (wanted && !selected) throw new Response("Colección no encontrada", { status: 404 });
  const email = selected
    ? renderOpeningEmail(selected, settings.current().shop, shopOrigin(args.context))
    : null;
  return {
    view: "avisame" as const,
    drops,
    selected,
    signUps: selected ? await listSignUps(db, selected.id, SIGN_UPS_SHOWN) : [],
    preview: email ? { subject: email.subject, html: email.html } : null,
    ownerEmail: admin.email,
    now,
  };
}

interface CampaignAnswer {
  ok: boolean;
  message: string;
}

function answer(status: number, body: CampaignAnswer) {
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

/** 'Enviar prueba' (intent=prueba, drop=…) and 'Reenviar' (intent=reenviar, email=…). */
export async function action(args: Route.ActionArgs) {
  const admin = requireAdmin(args);
  const { database, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return answer(400, { ok: false, message: "Envía el formulario." });
  const text = (name: string) => String(form.get(name) ?? "");
  switch (text("intent")) {
    case "prueba": {
      const dropId = text("drop");
      const result = isId(dropId)
        ? await queueTestEmail(database.db, {
            dropId,
            to: admin.email,
            siteUrl: new URL(shopOrigin(args.context)).origin,
          })
        : ({ ok: false, reason: "drop_no_encontrado" } as const);
      if (!result.ok) return answer(404, { ok: false, message: "Esa colección no existe." });
      mail.sendSoon();
      return answer(200, { ok: true, message: `Prueba en camino a ${admin.email}.` });
    }
    case "reenviar": {
      const emailId = text("email");
      const result = isId(emailId)
        ? await retryFailedEmail(database.db, emailId)
        : ({ ok: false, reason: "no_encontrado" } as const);
      if (result.ok) {
        mail.sendSoon();
        return answer(200, { ok: true, message: "Correo en camino de nuevo." });
      }
      // A second click, or another tab, got there first: the message is already on its way.
      if (result.reason === "no_fallido")
        return answer(200, { ok: true, message: "Ese correo ya va en camino." });
      return answer(404, { ok: false, message: "Ese correo no existe." });
    }
    default:
      return answer(400, { ok: false, message: "Acción desconocida." });
  }
}

const button = "min-h-11 rounded-full px-5 text-sm font-medium disabled:opacity-60";

function tabClass(active: boolean) {
  return `min-h-11 content-center whitespace-nowrap rounded-full px-4 text-sm ${
    active ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand"
  }`;
}

function When({ date }: { date: Date | null }) {
  return date ? <time dateTime={date.toISOString()}>{formatShopDateTime(date)}</time> : <>—</>;
}

/** The answer of the last action, said where the owner is looking. */
function Answer({ answer }: { answer: CampaignAnswer | undefined }) {
  if (!answer) return null;
  return answer.ok ? (
    <p role="status" className="mt-3 text-sm text-green-900">
      {answer.message}
    </p>
  ) : (
    <p role="alert" className="mt-3 text-sm text-red-800">
      {answer.message}
    </p>
  );
}

export default function Campaigns({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="section-title">
      <h1 id="section-title" className="font-serif text-3xl">
        Campañas
      </h1>
      <nav aria-label="Secciones de Campañas" className="mt-6 flex gap-2 overflow-x-auto">
        <Link
          to="/admin/campains"
          aria-current={loaderData.view === "avisame" ? "page" : undefined}
          className={tabClass(loaderData.view === "avisame")}
        >
          Avísame
        </Link>
        <Link
          to={mailLogHref(null)}
          aria-current={loaderData.view === "correos" ? "page" : undefined}
          className={tabClass(loaderData.view === "correos")}
        >
          Registro de correos
        </Link>
      </nav>
      {loaderData.view === "avisame" ? <Waitlists data={loaderData} /> : <MailLog data={loaderData} />}
    </section>
  );
}

type WaitlistData = Extract<Route.ComponentProps["loaderData"], { view: "avisame" }>;
type MailLogData = Extract<Route.ComponentProps["loaderData"], { view: "correos" }>;

function Waitlists({ data }: { data: WaitlistData }) {
  const { drops, selected, signUps, preview, ownerEmail, now } = data;
  const fetcher = useFetcher<CampaignAnswer>({ key: "campaigns" });
  return (
    <>
      {drops.length === 0 ? (
        <p className="mt-6 text-ink/75">
          No hay colecciones próximas. Cuando crees una, aquí verás quién pidió que le avisen.
        </p>
      ) : (
        <nav aria-label="Colecciones próximas" className="mt-6">
          <ul className="flex flex-wrap gap-2">
            {drops.map((drop) => (
              <li key={drop.id}>
                <Link
                  to={`/admin/campains?drop=${drop.id}`}
                  aria-current={drop.id === selected?.id ? "page" : undefined}
                  className={`block rounded-lg border px-4 py-2 text-sm ${
                    drop.id === selected?.id ? "border-ink bg-white" : "border-ink/20 hover:border-ink/60"
                  }`}
                >
                  <span className="font-medium">{drop.name}</span>{" "}
                  <span className="text-ink/75">
                    · {drop.counts.total === 1 ? "1 registro" : `${drop.counts.total} registros`}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}

      {selected && (
        <>
          <section aria-labelledby="list-title" className="mt-8 rounded-xl bg-white p-4 shadow-sm sm:p-6">
            <h2 id="list-title" className="font-serif text-2xl">
              Avísame: {selected.name}
            </h2>
            <p className="mt-1 text-sm text-ink/75">
              {selected.startAt > now ? "Abre el " : "Abrió el "}
              <When date={selected.startAt} /> (hora de la Ciudad de México)
            </p>
            <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[
                ["Registros", selected.counts.total],
                ["Confirmadas", selected.counts.confirmadas],
                ["Sin confirmar", selected.counts.pendientes],
                ["Dadas de baja", selected.counts.bajas],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg bg-cream p-3">
                  <dt className="text-sm text-ink/75">{label}</dt>
                  <dd className="font-serif text-2xl">{value}</dd>
                </div>
              ))}
            </dl>
            <Form method="post" action="/admin/campains/exportar.csv" reloadDocument className="mt-4">
              <input type="hidden" name="drop" value={selected.id} />
              <button type="submit" className={`${button} border border-ink`}>
                Exportar CSV
              </button>
            </Form>
            {signUps.length === 0 ? (
              <p className="mt-4 text-ink/75">Todavía nadie pidió el aviso de esta colección.</p>
            ) : (
              // biome-ignore lint/a11y/useSemanticElements: the scroll container is a named region inside this section
              <div
                className="mt-4 overflow-x-auto"
                role="region"
                aria-label={`Lista de Avísame de ${selected.name}`}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways, with the keyboard too (WCAG 2.1.1)
                tabIndex={0}
              >
                <table className="w-full min-w-[36rem] text-left text-sm">
                  <caption className="sr-only">Lista de Avísame de {selected.name}</caption>
                  <thead>
                    <tr className="border-b border-sand">
                      <th scope="col" className="py-2 pr-3">
                        Correo
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        Estado
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        Registro
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        Confirmación
                      </th>
                      <th scope="col" className="py-2">
                        Baja
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {signUps.map((s) => (
                      <tr key={s.email} className="border-b border-sand/60">
                        <td className="break-all py-2 pr-3">{s.email}</td>
                        <td className="py-2 pr-3">{SIGN_UP_STATUS_LABELS[s.status]}</td>
                        <td className="py-2 pr-3">
                          <When date={s.createdAt} />
                        </td>
                        <td className="py-2 pr-3">
                          <When date={s.confirmedAt} />
                        </td>
                        <td className="py-2">
                          <When date={s.unsubscribedAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {selected.counts.total > signUps.length && (
              <p className="mt-2 text-sm text-ink/75">
                Se muestran los {signUps.length} registros más recientes; el CSV tiene la lista completa.
              </p>
            )}
          </section>

          {preview && (
            <section
              aria-labelledby="opening-title"
              className="mt-8 rounded-xl bg-white p-4 shadow-sm sm:p-6"
            >
              <h2 id="opening-title" className="font-serif text-2xl">
                Correo de apertura
              </h2>
              {selected.startAt > now ? (
                <p className="mt-2">
                  Se envía solo cuando abre la colección, el <When date={selected.startAt} /> (hora de la
                  Ciudad de México), a las direcciones confirmadas para entonces (hoy:{" "}
                  {selected.counts.confirmadas === 1
                    ? "1 dirección"
                    : `${selected.counts.confirmadas} direcciones`}
                  ).
                </p>
              ) : (
                <p className="mt-2">
                  La colección ya abrió: el aviso salió a las direcciones confirmadas en el primer minuto de
                  la apertura.
                </p>
              )}
              <p className="mt-4 text-sm">
                <span className="text-ink/75">Asunto:</span> <strong>{preview.subject}</strong>
              </p>
              {/* The e-mail's own markup, shown apart: a sandboxed frame runs nothing and reaches nothing. */}
              <iframe
                title="Vista previa del correo de apertura"
                sandbox=""
                srcDoc={preview.html}
                className="mt-2 h-[28rem] w-full rounded-lg border border-sand bg-cream"
              />
              <p className="mt-2 text-sm text-ink/75">
                El enlace para darse de baja es personal: cada persona recibe el suyo.
              </p>
              <fetcher.Form method="post" action="/admin/campains" className="mt-4">
                <input type="hidden" name="intent" value="prueba" />
                <input type="hidden" name="drop" value={selected.id} />
                <button
                  type="submit"
                  disabled={fetcher.state !== "idle"}
                  className={`${button} bg-ink text-cream`}
                >
                  Enviar prueba
                </button>
                <p className="mt-2 text-sm text-ink/75">La prueba le llega a {ownerEmail}.</p>
              </fetcher.Form>
              <Answer answer={fetcher.data} />
            </section>
          )}
        </>
      )}
    </>
  );
}

function MailLog({ data }: { data: MailLogData }) {
  const { state, page, entries, more, counts, error } = data;
  const fetcher = useFetcher<CampaignAnswer>({ key: "campaigns" });
  const total = MAIL_STATES.reduce((sum, s) => sum + counts[s], 0);
  const filters: (MailState | null)[] = [null, ...MAIL_STATES];
  return (
    <section aria-labelledby="log-title" className="mt-8">
      <h2 id="log-title" className="font-serif text-2xl">
        Registro de correos
      </h2>
      <p className="mt-1 text-sm text-ink/75">
        Cada correo de la tienda: pedidos, envíos, Avísame y pruebas. Uno que falló se reintenta solo durante
        unos días; 'Reenviar' lo manda ya.
      </p>
      <nav aria-label="Estado de los correos" className="mt-4 flex gap-2 overflow-x-auto">
        {filters.map((f) => (
          <Link
            key={f ?? "todos"}
            to={mailLogHref(f)}
            aria-current={f === state && !error ? "page" : undefined}
            className={tabClass(f === state && !error)}
          >
            {MAIL_FILTER_LABELS[f ?? "todos"]} ({f ? counts[f] : total})
          </Link>
        ))}
      </nav>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-800">
          {error}
        </p>
      )}
      <Answer answer={fetcher.data} />
      {!error && entries.length === 0 && <p className="mt-6 text-ink/75">No hay correos en esta sección.</p>}
      {entries.length > 0 && (
        <ol className="mt-4 space-y-3" aria-label="Correos">
          {entries.map((e) => (
            <li key={e.id}>
              <article aria-labelledby={`mail-${e.id}`} className="rounded-xl bg-white p-4 shadow-sm">
                <h3 id={`mail-${e.id}`} className="break-words font-medium">
                  {e.subject ?? mailKindLabel(e.kind)}
                </h3>
                <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-ink/75">Para</dt>
                  <dd className="break-all">{e.recipient}</dd>
                  <dt className="text-ink/75">Tipo</dt>
                  <dd>{mailKindLabel(e.kind)}</dd>
                  <dt className="text-ink/75">Estado</dt>
                  <dd>
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                        e.state === "fallido"
                          ? "bg-red-100 text-red-900"
                          : e.state === "enviado"
                            ? "bg-green-100 text-green-900"
                            : "bg-sand text-ink"
                      }`}
                    >
                      {MAIL_STATE_LABELS[e.state]}
                    </span>
                  </dd>
                  <dt className="text-ink/75">Intentos</dt>
                  <dd>{e.attempts}</dd>
                  <dt className="text-ink/75">En cola desde</dt>
                  <dd>
                    <When date={e.createdAt} />
                  </dd>
                  {e.sentAt && e.state === "enviado" && (
                    <>
                      <dt className="text-ink/75">Enviado</dt>
                      <dd>
                        <When date={e.sentAt} />
                      </dd>
                    </>
                  )}
                  {e.lastError && (
                    <>
                      <dt className="text-ink/75">Último error</dt>
                      <dd className="break-words">{e.lastError}</dd>
                    </>
                  )}
                  {e.nextAttemptAt && (
                    <>
                      <dt className="text-ink/75">Próximo intento</dt>
                      <dd>
                        <When date={e.nextAttemptAt} />
                      </dd>
                    </>
                  )}
                </dl>
                {e.state === "fallido" && (
                  <fetcher.Form method="post" action="/admin/campains" className="mt-3">
                    <input type="hidden" name="intent" value="reenviar" />
                    <input type="hidden" name="email" value={e.id} />
                    <button
                      type="submit"
                      disabled={fetcher.state !== "idle"}
                      aria-label={`Reenviar el correo a ${e.recipient}`}
                      className={`${button} border border-ink`}
                    >
                      Reenviar
                    </button>
                  </fetcher.Form>
                )}
              </article>
            </li>
          ))}
        </ol>
      )}
      {(page > 1 || more) && (
        <nav aria-label="Páginas" className="mt-6 flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link to={mailLogHref(state, page - 1)} className="underline">
              ← Más recientes
            </Link>
          ) : (
            <span />
          )}
          {more && (
            <Link to={mailLogHref(state, page + 1)} className="underline">
              Anteriores →
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Colección no encontrada"
      notFoundMessage="Esa colección no existe o ya se borró."
      home={{ to: "/admin/campains", label: "Volver a Campañas" }}
    />
  );
}
