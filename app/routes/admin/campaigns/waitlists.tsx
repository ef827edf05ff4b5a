import { Form, Link, redirect, useFetcher } from "react-router";
import { MAIL_LOG_PATH } from "~/campaigns/mail-log";
import { queueTestEmail, renderOpeningEmail } from "~/campaigns/opening-email.server";
import { SIGN_UP_STATUS_LABELS } from "~/campaigns/waitlist-csv";
import {
  type CampaignDrop,
  campaignDrop,
  listSignUps,
  pastCampaigns,
  SIGN_UPS_SHOWN,
  upcomingCampaigns,
} from "~/campaigns/waitlists.server";
import {
  CAMPAIGNS_FETCHER,
  type CampaignAnswer,
  CampaignAnswerNote,
  CampaignsError,
  CampaignsSection,
  campaignButton,
  When,
} from "~/components/admin/campaigns";
import { LeaveListsForm } from "~/components/admin/leave-lists-form";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { isId } from "~/lib/ids";
import { leaveEveryList } from "~/waitlist/opt-in.server";
import { dropShowcase } from "~/waitlist/showcase.server";
import { parseEmail, SIGN_UP_MESSAGES } from "~/waitlist/sign-up-input";
import { requireAdmin } from "~/web/guards.server";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/waitlists";
import { campaignAnswer, resendAnswer } from "./answers.server";

export const meta: Route.MetaFunction = () => [{ title: "Campañas · Administración" }];

/**
 * Campañas' first page (decision 25): per upcoming drop (?drop=…) its 'Avísame' list and opening
 * e-mail. The mail log, once ?vista=correos here, has its own address: the old one leads there.
 */
export async function loader(args: Route.LoaderArgs) {
  const admin = requireAdmin(args);
  const { database, settings, media } = args.context.get(servicesContext);
  const db = database.db;
  const params = args.url.searchParams;
  const vista = params.get("vista") ?? "avisame";
  if (vista === "correos") {
    const rest = new URLSearchParams(params);
    rest.delete("vista");
    const query = rest.toString();
    throw redirect(query ? `${MAIL_LOG_PATH}?${query}` : MAIL_LOG_PATH, 301);
  }
  if (vista !== "avisame") throw new Response("Sección no encontrada", { status: 404 });

  const now = new Date();
  const [drops, past] = await Promise.all([upcomingCampaigns(db, now), pastCampaigns(db, now)]);
  const wanted = params.get("drop");
  const selected = wanted ? (isId(wanted) ? await campaignDrop(db, wanted) : null) : (drops[0] ?? null);
  if (wanted && !selected) throw new Response("Colección no encontrada", { status: 404 });
  const origin = shopOrigin(args.context);
  const email = selected
    ? await renderOpeningEmail(
        selected,
        settings.current().shop,
        origin,
        await dropShowcase(db, media, selected.id, origin),
      )
    : null;
  return {
    drops,
    past,
    selected,
    signUps: selected ? await listSignUps(db, selected.id, SIGN_UPS_SHOWN) : [],
    preview: email ? { subject: email.subject, html: email.html } : null,
    ownerEmail: admin.email,
    now,
  };
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

/**
 * 'Enviar prueba' (intent=prueba, drop=…); 'Dar de baja' (intent=baja, email=…): the address leaves
 * every list. 'Reenviar' (intent=reenviar, email=…) is the mail log's and is still taken here.
 */

export async function action(args: Route.ActionArgs) {
  const admin = requireAdmin(args);
  const { database, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return campaignAnswer(400, { ok: false, message: "Envía el formulario." });
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
      if (!result.ok) return campaignAnswer(404, { ok: false, message: "Esa colección no existe." });
      mail.sendSoon();
      return campaignAnswer(200, { ok: true, message: `Prueba en camino a ${admin.email}.` });
    }
    case "reenviar":
      return resendAnswer(database.db, mail, text("email"));
    case "baja": {
      const email = parseEmail(form.get("email"));
      if (!email) return campaignAnswer(400, { ok: false, message: SIGN_UP_MESSAGES.correo_invalido });
      const left = await leaveEveryList(database.db, email, new Date());
      return campaignAnswer(200, {
        ok: true,
        message:
          left === 0
            ? `${email} no estaba en ninguna lista (o ya se había dado de baja): no recibe avisos.`
            : `Listo: ${email} dejó ${left === 1 ? "1 lista" : `${left} listas`} y no recibirá más avisos.`,
      });
    }
    default:
      return campaignAnswer(400, { ok: false, message: "Acción desconocida." });
  }
}

export default function Waitlists({ loaderData }: Route.ComponentProps) {
  const { drops, past, selected, signUps, preview, ownerEmail, now } = loaderData;
  const fetcher = useFetcher<CampaignAnswer>({ key: CAMPAIGNS_FETCHER });
  return (
    <CampaignsSection view="avisame">
      {drops.length === 0 ? (
        <p className="mt-6 text-ink/75">
          No hay colecciones próximas. Cuando crees una, aquí verás quién pidió que le avisen.
        </p>
      ) : (
        <DropLinks label="Colecciones próximas" drops={drops} selected={selected?.id} />
      )}
      {/* Their lists stay readable after the opening: who had confirmed, who bought (Reportes). */}
      {past.length > 0 && (
        <DropLinks label="Colecciones que ya abrieron" drops={past} selected={selected?.id} shown />
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
            {/* Answered as accepted, never mailed (decision 31): what an attack on the form looks like. */}
            <p className="mt-4 text-sm">
              Registros sin correo por límite: <strong>{selected.refusals.total}</strong>
              {selected.refusals.total > 0 && (
                <span className="text-ink/75">
                  {" "}
                  (buzón: {selected.refusals.buzon} · dirección: {selected.refusals.direccion} · tienda:{" "}
                  {selected.refusals.tienda})
                </span>
              )}
            </p>
            <p className="mt-1 text-sm text-ink/75">
              No se envió el correo de confirmación porque ese buzón, esa dirección de internet o la tienda ya
              habían recibido o pedido demasiados en poco tiempo. A quien se registró se le respondió lo mismo
              que a los demás.
            </p>
            <Form method="post" action="/admin/campains/exportar.csv" reloadDocument className="mt-4">
              <input type="hidden" name="drop" value={selected.id} />
              <button type="submit" className={`${campaignButton} border border-ink`}>
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
                  className={`${campaignButton} bg-ink text-cream`}
                >
                  Enviar prueba
                </button>
                <p className="mt-2 text-sm text-ink/75">La prueba le llega a {ownerEmail}.</p>
              </fetcher.Form>
              <CampaignAnswerNote answer={fetcher.data} />
            </section>
          )}
        </>
      )}
      <LeaveListsForm />
    </CampaignsSection>
  );
}

/** The drops whose lists can be opened, each with how many signed up; `shown`: its name is on screen. */
function DropLinks({
  label,
  drops,
  selected,
  shown = false,
}: {
  label: string;
  drops: CampaignDrop[];
  selected: string | undefined;
  shown?: boolean;
}) {
  return (
    <nav aria-label={label} className="mt-6">
      {shown && <p className="mb-2 text-sm text-ink/75">{label}</p>}
      <ul className="flex flex-wrap gap-2">
        {drops.map((drop) => (
          <li key={drop.id}>
            <Link
              to={`/admin/campains?drop=${drop.id}`}
              aria-current={drop.id === selected ? "page" : undefined}
              className={`block rounded-lg border px-4 py-2 text-sm ${
                drop.id === selected ? "border-ink bg-white" : "border-ink/20 hover:border-ink/60"
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
  );
}

export function ErrorBoundary() {
  return <CampaignsError />;
}
