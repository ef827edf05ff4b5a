import { headerBlock } from "./header-block";
import type { CachedPage, Encoding, HitHead } from "./page-cache";
import { policyWithHashes } from "./script-hashes";

/* What a cached page is answered with: the body's encoding for the request, and the headers of a hit. */

/** Accept-Encoding values already decided: browsers send the same few strings on every request. */
const chosenEncodings = new Map<string, Encoding>();

/** Brotli, else gzip, else the plain body, as Accept-Encoding allows (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const known = chosenEncodings.get(acceptEncoding);
  if (known !== undefined) return known;
  const encoding = parseAcceptEncoding(acceptEncoding);
  // Bounded, so odd headers cannot fill memory.
  if (acceptEncoding.length <= 256) {
    if (chosenEncodings.size >= 64) chosenEncodings.clear();
    chosenEncodings.set(acceptEncoding, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: string) => {
    const own = q.get(coding);
    if (own !== undefined) return own > 0;
    const any = q.get("*");
    return any !== undefined && any > 0;
  };
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return "identity";
}

/**
 * What `send` (server/page-cache-middleware.ts) writes for a hit, checked and joined once: the security headers every answer gets
 * (`security`, already computed for a plain or an HTTPS request, with the nonce placeholder in
 * its CSP), then the same steps as `send` in the same order, a later name replacing an earlier
 * one as setHeader does.
 */
export function hitHeaders(page: CachedPage, security: [string, string][], encoding: Encoding): HitHead {
  const headers = new Map<string, [string, string]>();
  const set = (name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of security) set(name, value);
  for (const [name, value] of page.headers) set(name, value);
  const policy = headers.get("content-security-policy");
  if (policy) set(policy[0], policyWithHashes(policy[1], page.scriptHashes));
  set("Vary", "Accept-Encoding");
  if (encoding !== "identity") set("Content-Encoding", encoding);
  set("X-Cache", "HIT");
  return {
    block: headerBlock([...headers.values()].flat()),
    framing: ["Content-Length", String(page.bodies[encoding].length)],
  };
}
