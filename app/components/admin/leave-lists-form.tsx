import { useFetcher } from "react-router";
import { type CampaignAnswer, CampaignAnswerNote, campaignButton } from "./campaigns";

/**
 * 'Dar de baja un correo': the owner honours a request to stop the notices (the privacy notice's
 * opposition and cancellation rights) that came by e-mail or WhatsApp, not through the link.
 */
export function LeaveListsForm() {
  // Its own answer, said here only (the page's other actions share theirs).
  const fetcher = useFetcher<CampaignAnswer>();
  return (
    <section aria-labelledby="leave-title" className="mt-8 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="leave-title" className="font-serif text-2xl">
        Dar de baja un correo
      </h2>
      <p className="mt-1 text-sm text-ink/75">
        Si alguien te pide por otro medio que ya no le escribas, su correo deja todas las listas de Avísame y
        de 'Avísame si vuelve', como con el enlace de sus correos. Los avisos que ya estaban en cola no salen.
      </p>
      <fetcher.Form method="post" action="/admin/campains" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="baja" />
        <label className="grid gap-1 text-sm">
          Correo
          <input
            type="email"
            name="email"
            required
            autoComplete="off"
            className="min-h-11 rounded-lg border border-ink/30 px-3"
          />
        </label>
        <button
          type="submit"
          disabled={fetcher.state !== "idle"}
          className={`${campaignButton} border border-ink`}
        >
          Dar de baja
        </button>
      </fetcher.Form>
      <CampaignAnswerNote answer={fetcher.data} />
    </section>
  );
}
