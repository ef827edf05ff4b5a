import { createContext } from "react-router";

/**
 * Seconds to wait when server/app.ts counted this request past its limits but left the answer to
 * the route (`countRequests`): a page's own form then shows the Spanish 429 in place, where an
 * answer from the edge would replace the page. Null: within the limits.
 */
export const limitRefusalContext = createContext<number | null>(null);
