import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { OptionName } from "~/db/taxonomy";
import { FIELDS, PRIVACY_NOTICE_PATH } from "~/waitlist/form-fields";
import { RESTOCK_FIELDS, RESTOCK_LIST } from "~/waitlist/restock-input";

/**
 * What the sign-up action answers (app/web/waitlist-sign-up.server.ts); `reto`: the proof of work
 * sent was refused, and the form is sent once more with a new one.
 */
type Answer = { ok: true; message: string } | { ok: false; message: string; email: string; reto?: string };

/** The proof of work of this browser, solved in the background (~/cart/proof-of-work), or null. */
async function solvedProof(prepareOnly: boolean): Promise<string | null> {
  try {
    const proofs = await import("~/cart/proof-of-work");
    if (prepareOnly) {
      proofs.prepareProofOfWork();
      return null;
    }
    return await proofs.takeProofOfWork(fetch, { again: false });
  } catch {
    return null;
  }
}

/**
 * 'Avísame' for an upcoming drop (and 'Avísame si vuelve' for a sold-out piece, with its fields as
 * `children`): an e-mail and the consent box. With JavaScript it posts through
 * a fetcher and answers in place; without, it is a plain form that posts to the drop's page, which
 * shows the same answer (`fallback`, the page's own action data).
 *
 * With JavaScript the form also sends a proof of work (decision 31), solved in the background from
 * the moment the shopper starts filling it in (an /api/reto challenge; none when the shop asks for
 * none, and then the form is sent as it is). Without JavaScript it is sent without one, and the
 * server counts it under the tighter caps of such sign-ups.
 */
export function WaitlistForm({
  dropName,
  action,
  fallback,
  compact = false,
  title = "Avísame cuando abra",
  intro,
  children,
}: {
  dropName: string;
  /** Where to post: the drop's page (from home), or the page itself when omitted. */
  action?: string;
  fallback?: Answer | null;
  compact?: boolean;
  /** The form's heading (its region's name): 'Avísame si vuelve' for a sold-out piece. */
  title?: string;
  /** The sentence under the heading; the drop's opening one when omitted (not shown compact). */
  intro?: string;
  /** Fields of the list it signs up to, before the address (a sold-out piece's size, its list). */
  children?: ReactNode;
}) {
  const fetcher = useFetcher<Answer>();
  const id = useId();
  const [solving, setSolving] = useState(false);
  /** The last form sent, whether it may be sent once more, and the answer there was before it. */
  const sent = useRef<{
    fields: FormData;
    action: string | undefined;
    again: boolean;
    before: Answer | undefined;
  } | null>(null);
  const answer = solving ? null : (fetcher.data ?? fallback ?? null);
  const busy = solving || fetcher.state !== "idle";

  const send = async (fields: FormData, target: string | undefined) => {
    setSolving(true);
    const proof = await solvedProof(false);
    if (proof) fields.set(FIELDS.proof, proof);
    else fields.delete(FIELDS.proof);
    setSolving(false);
    await fetcher.submit(fields, { method: "post", action: target });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const target = form.getAttribute("action") ?? undefined;
    sent.current = { fields: new FormData(form), action: target, again: true, before: fetcher.data };
    void send(new FormData(form), target);
  };
  // A proof the server refused (made for a cookie since replaced, gone stale): once more, with one
  // solved for the cookie the browser has now.
  const refused = fetcher.state === "idle" && fetcher.data?.ok === false ? fetcher.data.reto : undefined;
  useEffect(() => {
    const last = sent.current;
    // Only this form's own answer (not the one shown before it was sent), and only once.
    if (!refused || !last?.again || fetcher.data === last.before) return;
    last.again = false;
    const fields = new FormData();
    for (const [name, value] of last.fields) fields.append(name, value);
    void send(fields, last.action);
  });
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={compact ? "mt-6 rounded-lg bg-sand/60 p-4" : "mt-8 rounded-lg bg-sand/60 p-5"}
    >
      <h2 id={`${id}-title`} className={compact ? "font-serif text-lg" : "font-serif text-2xl"}>
        {title}
      </h2>
      {intro !== undefined ? (
        <p className="mt-1 text-sm text-ink/80">{intro}</p>
      ) : (
        !compact && (
          <p className="mt-1 text-sm text-ink/80">
            Te escribimos una sola vez, cuando {dropName} abra. Primero te pedimos confirmar tu correo.
          </p>
        )
      )}
      <fetcher.Form
        method="post"
        action={action}
        className="mt-3 space-y-3"
        onSubmit={onSubmit}
        onFocus={() => void solvedProof(true)}
      >
        {children}
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium">
            Correo electrónico
          </label>
          <input
            id={`${id}-email`}
            name={FIELDS.email}
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            inputMode="email"
            defaultValue={answer && !answer.ok ? answer.email : ""}
            className="mt-1 w-full rounded-lg border border-ink/20 bg-white px-3 py-2"
          />
        </div>
        <div className="flex items-start gap-2 text-sm">
          <input
            id={`${id}-consent`}
            name={FIELDS.consent}
            type="checkbox"
            value="si"
            required
            className="mt-1 size-4"
          />
          <label htmlFor={`${id}-consent`}>
            Acepto recibir este aviso por correo y leí el{" "}
            <Link to={PRIVACY_NOTICE_PATH} className="underline underline-offset-4">
              aviso de privacidad
            </Link>
            .
          </label>
        </div>
        {answer && (
          <p
            role={answer.ok ? "status" : "alert"}
            className={
              answer.ok
                ? "rounded bg-white px-3 py-2 text-sm"
                : "rounded bg-red-50 px-3 py-2 text-sm text-red-800"
            }
          >
            {answer.message}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-ink px-6 py-2.5 font-medium text-cream hover:bg-gold-700 disabled:opacity-60"
        >
          {busy ? "Enviando..." : "Avísame"}
        </button>
      </fetcher.Form>
    </section>
  );
}

/**
 * 'Avísame si vuelve' (decision 46): the drop's 'Avísame' form (its e-mail, consent, proof of work
 * and answers) for a sold-out piece, or for one of its sold-out sizes, posted to the product page.
 */
export function RestockForm({
  dropName,
  option,
  soldOutSizes,
  someLeft,
  fallback,
}: {
  dropName: string;
  /** The piece's option ('Talla', 'Largo'); null for a piece without sizes. */
  option: OptionName | null;
  /** Its sizes sold out, to choose from. */
  soldOutSizes: { id: string; value: string }[];
  /** Other sizes are still for sale: the form asks for one that is not. */
  someLeft: boolean;
  fallback?: Answer | null;
}) {
  const id = useId();
  const words = option === "Largo" ? "largo" : "talla";
  return (
    <WaitlistForm
      dropName={dropName}
      fallback={fallback}
      compact
      title="Avísame si vuelve"
      intro={
        someLeft
          ? `¿Se agotó tu ${words}? Te escribimos una sola vez si vuelve. Primero te pedimos confirmar tu correo.`
          : "Te escribimos una sola vez si vuelve una pieza. Primero te pedimos confirmar tu correo."
      }
    >
      <input type="hidden" name={RESTOCK_FIELDS.list} value={RESTOCK_LIST} />
      {option && soldOutSizes.length > 0 && (
        <div>
          <label htmlFor={`${id}-size`} className="block text-sm font-medium">
            {option}
          </label>
          <select
            id={`${id}-size`}
            name={RESTOCK_FIELDS.size}
            className="mt-1 w-full rounded-lg border border-ink/20 bg-white px-3 py-2"
          >
            {soldOutSizes.map((v) => (
              <option key={v.id} value={v.id}>
                {v.value}
              </option>
            ))}
          </select>
        </div>
      )}
    </WaitlistForm>
  );
}
