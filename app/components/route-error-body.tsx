import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/**
 * A route's error boundary: the route's own "not found" title (and `notFoundMessage`) for a 404,
 * "your session ended" for a 401 and "not allowed" for a 403 (an admin action refused before any
 * admin page could load), "method not allowed" for a post to a page that takes no form (a 405),
 * the route's own `gone` title and message for a 410 (a link that was valid and no longer is),
 * a calm message otherwise. `message` says what failed (announced to screen readers); `home` is
 * where the way out leads.
 */
export function RouteError({
  notFoundTitle,
  notFoundMessage,
  gone,
  message,
  home = { to: "/colecciones", label: "Ver colecciones" },
}: {
  notFoundTitle: string;
  notFoundMessage?: string;
  gone?: { title: string; message: string };
  message?: string;
  home?: { to: string; label: string };
}) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status >= 500) console.error(error);
  const [title, text, way] =
    status === 401
      ? [
          "Tu sesión terminó",
          "Inicia sesión de nuevo para continuar.",
          { to: "/login", label: "Iniciar sesión" },
        ]
      : status === 403
        ? ["Acción no permitida", "Esta solicitud no se aceptó. Vuelve a intentarlo desde la tienda.", home]
        : status === 404
          ? [notFoundTitle, notFoundMessage, home]
          : status === 405
            ? ["Método no permitido", "Esta página solo se consulta: no recibe formularios.", home]
            : status === 410 && gone
              ? [gone.title, gone.message, home]
              : ["Algo salió mal", message, home];
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">{title}</h1>
      {text && (
        <p role={status >= 500 ? "alert" : undefined} className="mt-4 text-lg text-ink/70">
          {text}
        </p>
      )}
      <Link to={way.to} className="mt-6 inline-block underline">
        {way.label}
      </Link>
    </main>
  );
}
