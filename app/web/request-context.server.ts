import { RouterContextProvider } from "react-router";
import { browserIdContext, clientAddressContext } from "./client-address";
import { limitRefusalContext } from "./limit-refusal";
import { cspNonceContext, wholeDocumentContext } from "./nonce";
import { shopOriginContext } from "./origin.server";
import { type Services, servicesContext } from "./services";

/** What the server knows of one request before React Router sees it. */
export interface RequestFacts {
  /** The client's address as the server believes it (see clientAddressContext). */
  clientAddress: string;
  /** The browser's id from its cookie, or the one issued with this answer; null for none. */
  browserId: string | null;
  /** The Content-Security-Policy nonce of this answer ("" for none). */
  nonce: string;
  /** The shop's public origin (never the request's Host header). */
  origin: string;
  /** Seconds to wait, when the edge counted the request past its limits but left the answer to the route. */
  limitRefusal: number | null;
}

/** Every router-context key a loader or action may read, for one visitor's request. */
export function requestContext(services: Services, facts: RequestFacts): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  context.set(clientAddressContext, facts.clientAddress);
  context.set(browserIdContext, facts.browserId);
  context.set(cspNonceContext, facts.nonce);
  context.set(shopOriginContext, facts.origin);
  context.set(limitRefusalContext, facts.limitRefusal);
  return context;
}

/**
 * The context of a page rendered for nobody in particular (the page cache, a new process's
 * warm-up): nothing of any visitor goes in, and the whole document is rendered before answering.
 */
export function anonymousContext(services: Services, origin: string): RouterContextProvider {
  const context = requestContext(services, {
    clientAddress: "caché",
    browserId: null,
    nonce: "",
    origin,
    limitRefusal: null,
  });
  context.set(wholeDocumentContext, true);
  return context;
}
