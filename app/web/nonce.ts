import { createContext as createReactContext, useContext } from "react";
import { createContext } from "react-router";

/** The per-request Content-Security-Policy nonce, set by the server for each document request. */
export const cspNonceContext = createContext<string>("");

const NonceContext = createReactContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;

/** The nonce for inline scripts React Router renders (hydration data, scroll restoration). */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

/**
 * Set by the page cache (server/page-cache.ts): render the whole document before answering and
 * without a nonce, so every inline script is in the stored HTML and its hash goes in the CSP.
 */
export const wholeDocumentContext = createContext<boolean>(false);
