import { data, Form, Link } from "react-router";
import { RouteError } from "~/components/route-error";
import { verifyListToken } from "~/waitlist/links.server";
import { confirmRestock, getRestockRequest } from "~/waitlist/restock.server";
import { CONFIRM_WITHIN_DAYS, confirmSubscription, getSubscription } from "~/waitlist/waitlist.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/waitlist-confirm";

export const meta = () => [{ title: "Confirmar aviso" }, { name: "robots", content: "noindex" }];
export const headers = () => ({ "Cache-Control": "private, no-store" });

type View = { title: string; text: string; link: { to: string; label: string } };

const COLLECTIONS = { to: "/colecciones", label: "Ver colecciones" };

const INVALID: View = {
  title: "Enlace no válido",
  text: "Este enlace de confirmación no es válido. Copia el enlace completo del correo, o regístrate de nuevo en la página de la colección.",
  link: COLLECTIONS,
};

/**
 * The confirmation link of a sign-up e-mail, a drop's 'Avísame' or a piece's 'Avísame si vuelve'.
 * Opening it asks (a button): a mail scanner that follows every link (Outlook's Safe Links and the
 * like) would otherwise confirm addresses nobody confirmed, and double opt-in is the buyer's own
 * click. The button confirms (again: nothing changes), as the unsubscribe page does.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, waitlistLinks } = context.get(servicesContext);
  const token = new URL(request.url).searchParams.get("t");
  const named = verifyListToken(waitlistLinks, "confirmar", token);
  if (!named) return data({ view: INVALID, ask: null }, { status: 400 });
  const found =
    named.list === "pieza"
      ? await getRestockRequest(database.db, named.id)
      : await getSubscription(database.db, named.id);
  if (!found) {
    const gone: View = {
      title: "Este aviso ya no existe",
      text: `${named.list === "pieza" ? "La pieza" : "La colección"} de este aviso ya no está en la tienda.`,
      link: COLLECTIONS,
    };
    return data({ view: gone, ask: null }, { status: 404 });
  }
  return {
    view: null,
    ask: { token: token ?? "", name: "drop" in found ? found.drop.name : found.product.name },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { database, waitlistLinks } = context.get(servicesContext);
  const form = await request.formData().catch(() => null);
  const fromForm = form?.get("t");
  const token = verifyListToken(
    waitlistLinks,
    "confirmar",
    typeof fromForm === "string" ? fromForm : new URL(request.url).searchParams.get("t"),
  );
  if (!token) return data<View>(INVALID, { status: 400 });
  if (token.list === "pieza") return pieceAnswer(await confirmRestock(database.db, token.id));
  const result = await confirmSubscription(database.db, token.id);
  if (!result.ok && result.reason === "vencido" && result.drop) {
    return data<View>(
      {
        title: "Este enlace venció",
        text: `Los enlaces de confirmación valen ${CONFIRM_WITHIN_DAYS} días. Regístrate de nuevo en la página de ${result.drop.name} y te enviaremos otro.`,
        link: { to: `/coleccion/${result.drop.id}`, label: `Ver ${result.drop.name}` },
      },
      { status: 410 },
    );
  }
  if (!result.ok) {
    return result.reason === "dado_de_baja"
      ? data<View>({
          title: "Te diste de baja",
          text: "Ya no recibes avisos de esta tienda. Si cambias de opinión, regístrate de nuevo en la página de la colección.",
          link: COLLECTIONS,
        })
      : data<View>(
          {
            title: "Este aviso ya no existe",
            text: "La colección de este aviso ya no está en la tienda.",
            link: COLLECTIONS,
          },
          { status: 404 },
        );
  }
  const name = result.drop.name;
  return data<View>({
    title: result.already ? "Tu correo ya estaba confirmado" : "¡Correo confirmado!",
    // Said as it stands now: a notice promised for a drop already closed would never come.
    text:
      result.moment === "cerrada"
        ? `${name} ya cerró, así que no te escribiremos por ella. Te esperamos en nuestra próxima colección.`
        : result.moment === "avisada"
          ? `${name} ya abrió y te enviamos su aviso: ve a verla.`
          : result.moment === "abierta"
            ? `Ya abrió ${name}: te enviamos el aviso en unos minutos, o ve a verla ahora.`
            : `Te escribiremos una sola vez, cuando abra ${name}.`,
    link:
      result.moment === "cerrada"
        ? COLLECTIONS
        : { to: `/coleccion/${result.drop.id}`, label: `Ver ${name}` },
  });
}

/** What the page says to a piece's confirmation link. */
function pieceAnswer(result: Awaited<ReturnType<typeof confirmRestock>>) {
  if (result.ok) {
    return data<View>({
      title: result.already ? "Tu correo ya estaba confirmado" : "¡Correo confirmado!",
      text:
        result.now === "cerrada"
          ? `La colección de ${result.piece.name} ya cerró: esta pieza no volverá a la venta, así que no te escribiremos por ella.`
          : result.now === "disponible"
            ? `${result.piece.name} está disponible ahora: ve a verla antes de que se vuelva a agotar.`
            : `Te escribiremos una sola vez, si ${result.piece.name} vuelve a estar disponible.`,
      link: result.now === "cerrada" ? COLLECTIONS : { to: result.piece.href, label: "Ver la pieza" },
    });
  }
  if (result.reason === "vencido" && result.piece) {
    return data<View>(
      {
        title: "Este enlace venció",
        text: `Los enlaces de confirmación valen ${CONFIRM_WITHIN_DAYS} días. Pide el aviso de nuevo en la página de ${result.piece.name} y te enviaremos otro.`,
        link: { to: result.piece.href, label: "Ver la pieza" },
      },
      { status: 410 },
    );
  }
  return result.reason === "dado_de_baja"
    ? data<View>({
        title: "Te diste de baja",
        text: "Ya no recibes avisos de esta tienda. Si cambias de opinión, pide el aviso de nuevo en la página de la pieza.",
        link: COLLECTIONS,
      })
    : data<View>(
        {
          title: "Este aviso ya no existe",
          text: "La pieza de este aviso ya no está en la tienda.",
          link: COLLECTIONS,
        },
        { status: 404 },
      );
}

export default function WaitlistConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData.view;
  if (!view) {
    return (
      <main className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="font-serif text-4xl">Confirma tu correo</h1>
        <Form method="post" className="mt-4">
          <p className="text-ink/80">
            Confirma que quieres recibir el aviso de {loaderData.ask?.name}: te escribiremos solo por él.
          </p>
          <input type="hidden" name="t" value={loaderData.ask?.token ?? ""} />
          <button
            type="submit"
            className="mt-6 rounded-full bg-ink px-6 py-3 font-medium text-cream hover:bg-gold-700"
          >
            Confirmar mi correo
          </button>
        </Form>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">{view.title}</h1>
      <p role={actionData ? "status" : undefined} className="mt-4 text-ink/80">
        {view.text}
      </p>
      <Link
        to={view.link.to}
        className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
      >
        {view.link.label}
      </Link>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
