import { useActionData } from "react-router";
import { BUYER_FIELDS, buyerInputOf } from "~/orders/buyer-input";
import type { Order } from "~/orders/order";
import { canMove } from "~/orders/status";
import { type DeskActionData, orderAction, useDeskFetcher } from "./desk-fetcher";

const INTENT = "comprador";

/**
 * 'Corregir datos del comprador': a paid order not yet shipped gets its buyer's name, e-mail,
 * phone and address corrected, with the checkout's fields and messages (orders/buyer-input.ts).
 * Not marked required for the browser, as the checkout's: the server says what is missing.
 */
export function BuyerCorrection({ order }: { order: Order }) {
  const fetcher = useDeskFetcher();
  // Posted with scripts, the desk's fetcher has the answer; without them, the page's action.
  const posted = useActionData<DeskActionData>();
  const answer = [fetcher.state === "idle" ? fetcher.data : undefined, posted].find(
    (a) => a?.intent === INTENT && a.orderId === order.id,
  );
  if (!canMove(order.status, "correctBuyer") || order.removedAt) return null;
  const errors = (answer && !answer.ok && answer.fields) || {};
  const values = buyerInputOf(order);
  const refused = Object.keys(errors).length > 0;
  return (
    <details open={refused || undefined} className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <summary className="cursor-pointer font-medium">Corregir datos del comprador</summary>
      <fetcher.Form method="post" action={orderAction(order.id)} noValidate className="mt-4 max-w-md text-sm">
        <input type="hidden" name="intent" value={INTENT} />
        <p>
          Si la clienta escribió mal su nombre, correo, teléfono o dirección, corrígelos aquí antes de enviar
          el pedido. El envío que ya pagó no cambia.
        </p>
        <div className="mt-3 space-y-4">
          {BUYER_FIELDS.map((field) => {
            const id = `buyer-${field.name}`;
            const error = errors[field.name];
            const hint = field.name === "email" ? `${id}-hint` : null;
            const described = [hint, error ? `${id}-error` : null].filter(Boolean).join(" ");
            return (
              <div key={field.name}>
                <label htmlFor={id} className="block font-medium">
                  {field.label}
                </label>
                {hint && (
                  <p id={hint} className="text-ink/75">
                    Si lo cambias, los correos que ya salieron no se mandan solos de nuevo: en el Historial,
                    'Reenviar' manda una copia a la dirección nueva.
                  </p>
                )}
                <input
                  id={id}
                  name={field.name}
                  type={"type" in field ? field.type : "text"}
                  inputMode={"inputMode" in field ? field.inputMode : undefined}
                  // Another person's data: the owner's browser must not fill in her own.
                  autoComplete="off"
                  defaultValue={values[field.name]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={described || undefined}
                  className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
                />
                {error && (
                  <p id={`${id}-error`} className="mt-1 text-red-800">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </div>
        <button
          type="submit"
          disabled={fetcher.state !== "idle"}
          className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream disabled:opacity-60"
        >
          Guardar datos del comprador
        </button>
      </fetcher.Form>
    </details>
  );
}
