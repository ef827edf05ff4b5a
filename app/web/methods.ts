/*
 * What a route answers to a method it does not take. Without an `action`, React Router answers a
 * POST with its own English text ("Unexpected Server Error", or "You made a POST request … but
 * did not provide an `action`" in a page's data) and logs a stack trace. Every route that only
 * shows something exports one of these as its `action` instead.
 */

const MESSAGE = "Método no permitido.";

/** A Spanish 405 that says which methods the address takes. */
export function methodNotAllowed(allow = "GET, HEAD"): Response {
  return Response.json(
    { message: MESSAGE },
    { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } },
  );
}

/** `export const action = onlyGet;` for a resource route (JSON, XML, text): the 405 is the answer. */
export function onlyGet(): Response {
  return methodNotAllowed();
}

/**
 * `export const action = pageTakesNoForm;` for a page: thrown, so the page's error boundary
 * shows it (RouteError's 405) and a data request gets it as the route's error.
 */
export function pageTakesNoForm(): never {
  throw methodNotAllowed();
}
