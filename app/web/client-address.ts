import { createContext } from "react-router";

/**
 * The client's address as the server sees it (Express `req.ip`, which believes one proxy hop only
 * when TRUST_PROXY is on). Failed sign-ins are counted per address.
 */
export const clientAddressContext = createContext<string>("desconocida");

/**
 * The browser's id (cookie `navegador`, server/request-limits.ts), or the one issued with this
 * very answer; null when the request has none. Limits, the one-checkout rule and /cancel's
 * signature count per browser.
 */
export const browserIdContext = createContext<string | null>(null);
