import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/** A route's error boundary: the route's own "not found" title for a 404, a calm message otherwise. */
export function RouteError({ notFoundTitle }: { notFoundTitle: string }) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">{notFound ? notFoundTitle : "Algo salió mal"}</h1>
      <Link to="/colecciones" className="mt-6 inline-block underline">
        Ver colecciones
      </Link>
    </main>
  );
}
