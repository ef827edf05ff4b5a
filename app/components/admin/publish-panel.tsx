import { useId } from "react";
import { useFetcher } from "react-router";

export interface PublishPanelValues {
  dropId: string;
  /** 'borrador', 'programada' or 'publicada'. */
  publication: "borrador" | "programada" | "publicada";
  /** What the panel says of the publication, in Spanish. */
  text: string;
  /** The drop's public address with the preview parameter. */
  previewHref: string;
}

/**
 * 'Publicar' (at once or from 'Visible desde', shop time), 'Volver a borrador' and the preview
 * link (decision 38). Separate from the drop form: publishing never saves what the form holds.
 */
export function PublishPanel({ values }: { values: PublishPanelValues }) {
  const fetcher = useFetcher<{ publish?: { ok: boolean; message: string } }>({ key: "publish" });
  const answer = fetcher.state === "idle" ? fetcher.data?.publish : undefined;
  const id = useId();
  const busy = fetcher.state !== "idle";
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id={`${id}-title`} className="font-serif text-2xl">
        Publicación
      </h2>
      <p className="mt-2 text-sm" data-testid="publication">
        {values.text}
      </p>
      <p className="mt-2 text-sm">
        <a href={values.previewHref} className="underline underline-offset-2">
          Vista previa
        </a>{" "}
        <span className="text-ink/75">(sus páginas públicas como se verán; solo para administradores)</span>
      </p>
      <p role="status" className={answer?.ok ? "mt-3 rounded-lg bg-emerald-50 px-4 py-3 text-sm" : ""}>
        {answer?.ok ? answer.message : ""}
      </p>
      <p
        role="alert"
        className={answer && !answer.ok ? "mt-3 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800" : ""}
      >
        {answer && !answer.ok ? answer.message : ""}
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-4">
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="publicar" />
          <input type="hidden" name="cuando" value="ahora" />
          <button
            type="submit"
            disabled={busy}
            className="min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream disabled:opacity-60"
          >
            Publicar ahora
          </button>
        </fetcher.Form>
        <fetcher.Form method="post" noValidate className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="publicar" />
          <input type="hidden" name="cuando" value="desde" />
          <div>
            <label htmlFor={`${id}-date`} className="block text-sm font-medium">
              Visible desde (fecha)
            </label>
            <input
              id={`${id}-date`}
              name="visibleDate"
              type="date"
              className="mt-1 min-h-11 rounded-lg border border-ink/30 bg-white px-3"
            />
          </div>
          <div>
            <label htmlFor={`${id}-time`} className="block text-sm font-medium">
              Visible desde (hora)
            </label>
            <input
              id={`${id}-time`}
              name="visibleTime"
              type="time"
              step={1}
              className="mt-1 min-h-11 rounded-lg border border-ink/30 bg-white px-3"
            />
          </div>
          <button
            type="submit"
            disabled={busy}
            className="min-h-11 rounded-full border border-ink px-5 text-sm font-medium disabled:opacity-60"
          >
            Publicar desde esa fecha
          </button>
        </fetcher.Form>
        {values.publication !== "borrador" && (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="borrador" />
            <button
              type="submit"
              disabled={busy}
              className="min-h-11 rounded-full border border-red-800 px-5 text-sm text-red-800 disabled:opacity-60"
            >
              Volver a borrador
            </button>
          </fetcher.Form>
        )}
      </div>
      <p className="mt-2 text-xs text-ink/75">Fechas y horas de la Ciudad de México.</p>
    </section>
  );
}
