import type { ReactNode } from "react";
import { Link } from "react-router";
import { mailLogHref } from "~/campaigns/mail-log";
import { RouteError } from "~/components/route-error";
import { formatShopDateTime } from "~/lib/dates";

/*
 * What Campañas' two pages share: the heading with its two sections (Avísame at /admin/campains,
 * Registro de correos at /admin/campains/correos), the answer of an action, shop times and the
 * error page.
 */

/** What an action of Campañas answers ('Enviar prueba', 'Reenviar'). */
export interface CampaignAnswer {
  ok: boolean;
  message: string;
}

/** One fetcher for Campañas' actions: its answer is said on whichever of its pages is open. */
export const CAMPAIGNS_FETCHER = "campaigns";

export const campaignButton = "min-h-11 rounded-full px-5 text-sm font-medium disabled:opacity-60";

export function tabClass(active: boolean) {
  return `min-h-11 content-center whitespace-nowrap rounded-full px-4 text-sm ${
    active ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand"
  }`;
}

/** A moment in Mexico City time, or a dash. */
export function When({ date }: { date: Date | null }) {
  return date ? <time dateTime={date.toISOString()}>{formatShopDateTime(date)}</time> : <>—</>;
}

/** The answer of the last action, said where the owner is looking. */
export function CampaignAnswerNote({ answer }: { answer: CampaignAnswer | undefined }) {
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

/** The section's heading and its two tabs, around the page of the tab open. */
export function CampaignsSection({ view, children }: { view: "avisame" | "correos"; children: ReactNode }) {
  return (
    <section aria-labelledby="section-title">
      <h1 id="section-title" className="font-serif text-3xl">
        Campañas
      </h1>
      <nav aria-label="Secciones de Campañas" className="mt-6 flex gap-2 overflow-x-auto">
        <Link
          to="/admin/campains"
          aria-current={view === "avisame" ? "page" : undefined}
          className={tabClass(view === "avisame")}
        >
          Avísame
        </Link>
        <Link
          to={mailLogHref(null)}
          aria-current={view === "correos" ? "page" : undefined}
          className={tabClass(view === "correos")}
        >
          Registro de correos
        </Link>
      </nav>
      {children}
    </section>
  );
}

/** Campañas' error page: a drop that does not exist, a session that ended, anything else. */
export function CampaignsError() {
  return (
    <RouteError
      notFoundTitle="Colección no encontrada"
      notFoundMessage="Esa colección no existe o ya se borró."
      home={{ to: "/admin/campains", label: "Volver a Campañas" }}
    />
  );
}
