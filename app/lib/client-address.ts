import { createContext } from "react-router";

/**
 * The client's address as the server sees it (Express `req.ip`, which believes one proxy hop only
 * when TRUST_PROXY is on). Failed sign-ins are counted per address.
 */
export const clientAddressContext = createContext<string>("desconocida");
