import { data, Form, Link } from "react-router";
import { RouteError } from "~/components/route-error";
import { verifyListToken } from "~/waitlist/links.server";
import { getRestockRequest, unsubscribeRestock } from "~/waitlist/restock.server";
import { getSubscription, unsubscribe } from "~/waitlist/waitlist.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/waitlist-unsubscribe";

export const meta = () => [{ title: "Darte de baja de los avisos" }, { name: "robots", content: "noindex" }];
export const headers = () => ({ "Cache-Control": "private, no-store" });

const INVALID =
  "Este enlace para darte de baja no es válido. Copia el enlace completo del correo que recibiste.";
const GONE = "Este aviso ya no existe: no te escribiremos sobre él.";

/**
 * The unsubscribe link of every 'Avísame' e-mail (a drop's, and 'Avísame si vuelve' of a piece). Opening it shows a button (a mail scanner that
 * follows links unsubscribes nobody); the button, or a mail client's one-click post
 * (List-Unsubscribe-Post, token in the address), unsubscribes. Both are idempotent.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, waitlistLinks } = context.get(servicesContext);
  const token = new URL(request.url).searchParams.get("t");
  const named = verifyListToken(waitlistLinks, "baja", token);
  if (!named) return data({ state: "error" as const, message: INVALID, token: "" }, { status: 400 });
  const found =
    named.list === "drop"
      ? await getSubscription(database.db, named.id)
      : await getRestockRequest(database.db, named.id);
  if (!found) return data({ state: "error" as const, message: GONE, token: "" }, { status: 404 });
  return {
    state: found.status === "baja" ? ("done" as const) : ("ask" as const),
    message: "",
    token: token ?? "",
    dropName: "drop" in found ? found.drop.name : found.product.name,
    /** A piece's 'Avísame si vuelve' list, or a collection's. */
    piece: !("drop" in found),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { database, waitlistLinks } = context.get(servicesContext);
  const form = await request.formData().catch(() => null);
  const fromForm = form?.get("t");
  const token = typeof fromForm === "string" ? fromForm : new URL(request.url).searchParams.get("t");
  const named = verifyListToken(waitlistLinks, "baja", token);
  if (!named) return data({ ok: false, message: INVALID }, { status: 400 });
  const result =
    named.list === "drop"
      ? await unsubscribe(database.db, named.id)
      : await unsubscribeRestock(database.db, named.id);
  if (!result.ok) return data({ ok: false, message: GONE }, { status: 404 });
  return data({
    ok: true,
    message: "Listo: te diste de baja. Ya no recibirás avisos de nuestras colecciones.",
  });
}

export default function WaitlistUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const message =
    actionData?.message ??
    (loaderData.state === "error"
      ? loaderData.message
      : loaderData.state === "done"
        ? "Ya estabas dado de baja: no recibirás avisos de nuestras colecciones."
        : null);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">Avisos por correo</h1>
      {message ? (
        <p role="status" className="mt-4 text-ink/80">
          {message}
        </p>
      ) : (
        <Form method="post" className="mt-4">
          <p className="text-ink/80">
            ¿Ya no quieres avisos por correo
            {"dropName" in loaderData
              ? loaderData.piece
                ? ` de ${loaderData.dropName} ni de nuestras colecciones`
                : ` de ${loaderData.dropName} ni de otras colecciones`
              : ""}
            ?
          </p>
          <input type="hidden" name="t" value={loaderData.token} />
          <button
            type="submit"
            className="mt-6 rounded-full bg-ink px-6 py-3 font-medium text-cream hover:bg-gold-700"
          >
            Darme de baja
          </button>
        </Form>
      )}
      <Link to="/colecciones" className="mt-8 inline-block underline underline-offset-4">
        Ver colecciones
      </Link>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
