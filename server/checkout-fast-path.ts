import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "~/config/log.server";
import { addressBucket } from "~/lib/address-bucket";
import { admitCheckout } from "~/orders/admission.server";
import type { CheckoutLine } from "~/orders/cart-read.server";
import { compileDrawShapes, drawPlaceTaker, inDraw } from "~/orders/line-draw.server";
import { compileOnceShapes } from "~/rate-limits/request-limits.server";
import {
  type CheckoutAnswer,
  dropsOf,
  readCheckoutRequest,
  refusalAnswer,
} from "~/web/checkout-request.server";
import { serveAtDraw } from "~/web/line-request.server";
import { isSameOriginFrom } from "~/web/origin.server";
import type { Services } from "~/web/services";
import { countCheckoutAnswer } from "./checkout-metrics";
import { isValidHost } from "./edge";
import { clientAddress, requestProtocol } from "./fast-path";
import { type HeaderBlock, writeBlockHead } from "./header-block";
import { keepReadBody, readBody } from "./request-handler";
import { browserId } from "./request-limits";

/*
 * The front door for drop day's checkouts (decision 15): the minute a drop opens, hundreds of
 * phones press 'Pagar' for a few pieces, and nearly all of them ask for pieces already gone. Such
 * a cart is refused here, before Express, from a plain read of the committed rows (the read
 * `holdCart` makes before any hold), with the answer the full path would give.
 *
 * Only refusals are answered here. A cart that may be held, a request that is not a well-formed
 * JSON checkout from the shop's own pages, a browser without its cookie, and a cart the browser
 * itself holds (its own unpaid checkout would be released first: the back button on the payment
 * page) go on to Express with the body already read: the request limits, the proof of work and
 * the transaction decide there, as before. A refusal holds nothing, so like a cached page it is
 * not counted against the limits, which guard the holds.
 *
 * A cart that may be held goes on only while the pieces read outnumber those already on their
 * way in checkouts this process sent on (`HoldBoard`, counted until their answers are sent). In a
 * rush's first instants, when every piece read is already on its way, a request waits here,
 * holding nothing, until a hold is written or one of those ends, and reads again: mostly to be
 * refused here, without Express, the limits and a transaction.
 */

export type CheckoutFastPath = (
  req: IncomingMessage,
  res: ServerResponse,
  extraHeaders: readonly string[],
  /** Hands the request to Express, which reads the kept body. */
  next: () => void,
) => boolean;

export interface CheckoutFastPathOptions {
  services: Services;
  maxBodyBytes: number;
  trustProxy: boolean;
  /**
   * The headers of every answer but its length and own few (security.headers, its type, no-store),
   * plain and over HTTPS; read per answer.
   */
  headers: { plain: HeaderBlock; secure: HeaderBlock };
  /** The shop's own origin, as the Express path gives it (a place's payment page returns there). */
  shopOrigin: (protocol: "http" | "https", port: number | undefined) => string;
  /** Tells the access log (LOG_REQUESTS) the answer's length; called before it is written. */
  log?: (req: IncomingMessage, res: ServerResponse, bytes: number) => void;
}

/** The port each server listens on, asked of its first connection (a system call each time). */
const serverPorts = new WeakMap<object, number>();

/** The port the request came in on: its server's listening port, the same for all its connections. */
function listeningPort(req: IncomingMessage): number | undefined {
  const server = (req.socket as { server?: object }).server;
  if (!server) return req.socket.localPort;
  let port = serverPorts.get(server);
  if (port === undefined) {
    port = req.socket.localPort;
    if (port !== undefined) serverPorts.set(server, port);
  }
  return port;
}

export function createCheckoutFastPath(options: CheckoutFastPathOptions): CheckoutFastPath {
  const { services, maxBodyBytes, trustProxy } = options;
  const { database, config } = services;
  // The places of one turn of the event loop in one transaction, with the proofs that pay for them.
  const takeDrawPlace = drawPlaceTaker(database.db, (db, keys) => services.limits.onceWithin(db, keys));
  // Their statements compiled a moment after start, not in an opening's first batch (the biggest).
  // On SQLite, prepared too: preparing a 256-row insert costs about what running it does.
  setTimeout(() => {
    const shapes = [...compileDrawShapes(database.db), ...compileOnceShapes(database.db)];
    try {
      database.keepPrepared?.(shapes.map((shape) => shape.sql));
    } catch (error) {
      // They are prepared when first run instead, and fail there in their own words.
      log.warn(
        { error: (error as Error).message },
        "No se pudieron preparar de antemano las consultas del sorteo",
      );
    }
  }, 1_000).unref();

  return (req, res, extraHeaders, next) => {
    if (req.method !== "POST" || req.url !== "/api/checkout") return false;
    const headers = req.headers;
    const declared = Number(headers["content-length"]);
    // A chunked body, an Expect, a body past its cap: the full path answers those.
    if (
      !(declared > 0 && declared <= maxBodyBytes) ||
      headers["transfer-encoding"] !== undefined ||
      headers.expect !== undefined
    )
      return false;
    const host = headers.host;
    if (host === undefined || !isValidHost(host)) return false;
    const browser = browserId(services.browserCookies, req);
    if (browser === null) return false;
    const protocol = requestProtocol(req, trustProxy);
    if (protocol === null) return false;

    const send = (status: number, message: unknown) => {
      const answer = JSON.stringify(message);
      const length = Buffer.byteLength(answer);
      res.statusCode = status;
      options.log?.(req, res, length);
      writeBlockHead(res, status, protocol === "https" ? options.headers.secure : options.headers.plain, [
        "Content-Length",
        String(length),
        ...extraHeaders,
      ]);
      res.end(answer);
    };

    /**
     * A place in the draw of the cart's drop, when its lottery is on: the answer to send; null
     * when the cart is in no draw; "express" for a proof the full path must refuse in its own words.
     * The request limits do not count it: a browser has one place per drop whatever it asks, an
     * address a few pieces in the draw, and every place costs a proof of work.
     */
    const drawPlace = async (
      lines: CheckoutLine[],
      browser: string,
      protocol: "http" | "https",
    ): Promise<CheckoutAnswer | "express" | null> => {
      const proof = services.proofOfWork;
      const dropIds = dropsOf(lines);
      if (!(await inDraw(database.db, dropIds))) return null;
      // Checked here, spent with the place (in its transaction): a proof refused either way goes
      // on to the full path, which refuses it in its own words.
      const checked = proof?.check(headers["x-altcha"] as string | undefined, browser) ?? null;
      if (checked && !checked.ok) return "express";
      const place = await takeDrawPlace({
        lines,
        browser,
        bucket: addressBucket(clientAddress(req, trustProxy) ?? "desconocida"),
        origin: options.shopOrigin(protocol, listeningPort(req)),
        ...(checked ? { singleUse: checked.singleUse } : {}),
      });
      if (place === null || (!place.ok && place.reason === "prueba_usada")) return "express";
      if (!place.ok) return { ...refusalAnswer(place, lines) };
      serveAtDraw(services, place.drop.id, place.drawEndsAt);
      return {
        status: 202,
        body: { fila: place.entryId, estado: "sorteo", sorteoTermina: place.drawEndsAt.toISOString() },
        dropIds,
      };
    };

    void (async () => {
      const body = await readBody(req, maxBodyBytes);
      if (body === "aborted") return;
      if (body === "too-large") {
        next();
        return;
      }
      keepReadBody(req, body);
      try {
        const read = readCheckoutRequest({
          contentType: headers["content-type"] ?? null,
          sameOrigin: isSameOriginFrom(
            {
              origin: (headers.origin as string | undefined) ?? null,
              secFetchSite: (headers["sec-fetch-site"] as string | undefined) ?? null,
            },
            `${protocol}://${host}`,
            config,
            { allowUnknown: true },
          ),
          body: body.toString("utf8"),
        });
        if (!read.ok) {
          next();
          return;
        }
        // In a drop's draw: a place, taken here (decision 27); its proof of work is checked first.
        const draw = await drawPlace(read.lines, browser, protocol);
        if (draw === "express") {
          next();
          return;
        }
        if (draw !== null) {
          if (res.destroyed || res.writableEnded) return;
          countCheckoutAnswer(draw);
          send(draw.status, draw.body);
          return;
        }
        // Pieces the browser holds itself are not gone for it: that one goes on (back button).
        const admission = await admitCheckout(database.db, {
          lines: read.lines,
          ceilings: config.orderCeilings,
          browser,
        });
        if (admission.refusal === null) {
          // Its place among the checkouts on their way lasts until its answer is sent.
          res.once("close", admission.leave);
          next();
          return;
        }
        if (res.destroyed || res.writableEnded) return;
        const refusal = refusalAnswer(admission.refusal, read.lines);
        countCheckoutAnswer(refusal);
        send(refusal.status, refusal.body);
      } catch {
        // The full path reads again and answers whatever went wrong in its own way.
        if (!res.headersSent) next();
      }
    })();
    return true;
  };
}
