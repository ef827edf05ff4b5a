import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/**
 * A route's error boundary: the route's own "not found" title (and `notFoundMessage`) for a 404, a
 * calm message otherwise. `message` says what failed (announced to screen readers).
 */
export function RouteError({
  notFoundTitle,
  notFoundMessage,
  message,
}: {
  notFoundTitle: string;
  notFoundMessage?: string;
  message?: string;
}) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">{notFound ? notFoundTitle : "Algo salió mal"}</h1>
      {message && !notFound && (
        <p role="alert" className="mt-4 text-lg text-ink/70">
          {message}
        </p>
      )}
      {notFoundMessage && notFound && <p className="mt-4 text-ink/70">{notFoundMessage}</p>}
      <Link to="/colecciones" className="mt-6 inline-block underline">
        Ver colecciones
      </Link>
    </main>
  );
}
