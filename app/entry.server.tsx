import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { log } from "~/config/log.server";
import { cspNonceContext, NonceProvider, wholeDocumentContext } from "~/web/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  allowOn405(request, responseStatusCode, responseHeaders);
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(cspNonceContext) || undefined;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and link-preview bots (WhatsApp, Instagram) get the whole page at once; so does the
    // page cache, which hashes every inline script of the finished document for its CSP.
    const whole =
      loadContext.get(wholeDocumentContext) || (userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const readyOption: keyof RenderToPipeableStreamOptions = whole ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // A part of the page already rendered is written in its place, however much page came
        // before it: React otherwise sends such a part (past its first 12.8 kB) hidden, for a
        // script to move into view, and a browser without JavaScript never shows it ('Avísame').
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error({ err: error }, "Error al mostrar la página");
        },
      },
    );
  });
}

/**
 * A 405 must say what the address takes, but React Router keeps only the cookies of a route's
 * answer headers on pages and data requests, so a route's own Allow is lost there. Set here: a
 * post refused is a page that takes no form (app/web/methods.ts); a GET refused, an endpoint that
 * only takes posts (the checkout, the webhook, the upload).
 */
function allowOn405(request: Request, status: number, headers: Headers): void {
  if (status !== 405 || headers.has("Allow")) return;
  headers.set("Allow", request.method === "POST" ? "GET, HEAD" : "POST");
}

/** React Router's data requests (`.data`). */
export function handleDataRequest(response: Response, { request }: { request: Request }) {
  allowOn405(request, response.status, response.headers);
  return response;
}

/** Errors React Router reports while handling a request. */
export function handleError(error: unknown, { request }: { request: Request }) {
  // The browser went away: nothing to report.
  if (request.signal.aborted) return;
  // React Router's own cross-site check refused a form post (answered 400): one line is enough.
  if (error instanceof Error && error.message.includes("does not match `origin` header")) {
    const from = request.headers.get("origin");
    log.warn(
      { method: request.method, path: new URL(request.url).pathname, origin: from },
      "Envío desde otro sitio rechazado",
    );
    return;
  }
  log.error({ err: error }, "Error al atender la solicitud");
}
