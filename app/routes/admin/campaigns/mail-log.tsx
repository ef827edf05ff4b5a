import { data, Link, useFetcher } from "react-router";
import {
  MAIL_FILTER_LABELS,
  MAIL_LOG_PATH,
  MAIL_STATE_LABELS,
  MAIL_STATES,
  type MailState,
  mailLogHref,
  parseMailLogQuery,
} from "~/campaigns/mail-log";
import { countMailByState, listMailLog } from "~/campaigns/mail-log.server";
import {
  CAMPAIGNS_FETCHER,
  type CampaignAnswer,
  CampaignAnswerNote,
  CampaignsError,
  CampaignsSection,
  campaignButton,
  tabClass,
  When,
} from "~/components/admin/campaigns";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { dailyBudget } from "~/mail/daily-budget.server";
import { mailKindLabel } from "~/mail/kinds";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/mail-log";
import { campaignAnswer, resendAnswer } from "./answers.server";

export const meta: Route.MetaFunction = () => [{ title: "Campañas · Administración" }];

/** Campañas' mail log (decision 25): every message of the shop's queue, ?estado=…&tipo=…&pagina=…. */
export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, config } = args.context.get(servicesContext);
  const db = database.db;
  const budget = await dailyBudget(db, config.mail.dailyLimit);
  const query = parseMailLogQuery(args.url.searchParams);
  if (!query.ok) {
    return data(
      {
        state: null,
        scope: null,
        page: 1,
        entries: [],
        more: false,
        counts: await countMailByState(db),
        budget,
        error: query.message,
      },
      { status: 400 },
    );
  }
  const counts = await countMailByState(db, query.scope);
  const { entries, more } = await listMailLog(db, query);
  return {
    state: query.state,
    scope: query.scope,
    page: query.page,
    entries,
    more,
    counts,
    budget,
    error: null,
  };
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

/** 'Reenviar' (intent=reenviar, email=…) on a failed message. */

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return campaignAnswer(400, { ok: false, message: "Envía el formulario." });
  if (form.get("intent") !== "reenviar")
    return campaignAnswer(400, { ok: false, message: "Acción desconocida." });
  return resendAnswer(database.db, mail, String(form.get("email") ?? ""));
}

export default function MailLog({ loaderData }: Route.ComponentProps) {
  const { state, scope, page, entries, more, counts, budget, error } = loaderData;
  const fetcher = useFetcher<CampaignAnswer>({ key: CAMPAIGNS_FETCHER });
  const total = MAIL_STATES.reduce((sum, s) => sum + counts[s], 0);
  const filters: (MailState | null)[] = [null, ...MAIL_STATES];
  return (
    <CampaignsSection view="correos">
      <section aria-labelledby="log-title" className="mt-8">
        <h2 id="log-title" className="font-serif text-2xl">
          Registro de correos
        </h2>
        <p className="mt-1 text-sm text-ink/75">
          Cada correo de la tienda: pedidos, envíos, Avísame y pruebas. Uno que falló se reintenta solo
          durante unos días; 'Reenviar' lo manda ya.
        </p>
        {budget && (
          <p className="mt-2 text-sm text-ink/75">
            {`Tu servicio de correo envía hasta ${budget.limit.toLocaleString("es-MX")} correos en 24 horas (MAIL_DAILY_LIMIT); en las últimas 24 horas salieron ${budget.sentInLastDay.toLocaleString("es-MX")}. Los avisos de Avísame usan hasta ${budget.bulkShare.toLocaleString("es-MX")}; el resto queda para pedidos y tus correos.`}
          </p>
        )}
        {budget && budget.noticesWaiting > 0 && (
          <p role="status" className="mt-2 rounded-lg bg-sand px-3 py-2 text-sm">
            {`${budget.noticesWaiting === 1 ? "1 aviso de Avísame espera" : `${budget.noticesWaiting.toLocaleString("es-MX")} avisos de Avísame esperan`} al límite diario: salen solos, en orden, a medida que se libera.`}
          </p>
        )}
        <nav aria-label="Estado de los correos" className="mt-4 flex gap-2 overflow-x-auto">
          {filters.map((f) => (
            <Link
              key={f ?? "todos"}
              to={mailLogHref(f, 1, scope)}
              aria-current={f === state && !error ? "page" : undefined}
              className={tabClass(f === state && !error)}
            >
              {MAIL_FILTER_LABELS[f ?? "todos"]} ({f ? counts[f] : total})
            </Link>
          ))}
        </nav>
        {scope === "pedidos" && (
          <p className="mt-3 text-sm">
            Solo los correos de pedidos: confirmaciones, fichas de pago, envíos, devoluciones y facturas.{" "}
            <Link to={mailLogHref(state)} className="underline">
              Ver todos los correos
            </Link>
          </p>
        )}
        {error && (
          <p role="alert" className="mt-4 text-sm text-red-800">
            {error}
          </p>
        )}
        <CampaignAnswerNote answer={fetcher.data} />
        {!error && entries.length === 0 && (
          <p className="mt-6 text-ink/75">No hay correos en esta sección.</p>
        )}
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
                    <fetcher.Form method="post" action={MAIL_LOG_PATH} className="mt-3">
                      <input type="hidden" name="intent" value="reenviar" />
                      <input type="hidden" name="email" value={e.id} />
                      <button
                        type="submit"
                        disabled={fetcher.state !== "idle"}
                        aria-label={`Reenviar el correo a ${e.recipient}`}
                        className={`${campaignButton} border border-ink`}
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
              <Link to={mailLogHref(state, page - 1, scope)} className="underline">
                ← Más recientes
              </Link>
            ) : (
              <span />
            )}
            {more && (
              <Link to={mailLogHref(state, page + 1, scope)} className="underline">
                Anteriores →
              </Link>
            )}
          </nav>
        )}
      </section>
    </CampaignsSection>
  );
}

export function ErrorBoundary() {
  return <CampaignsError />;
}
