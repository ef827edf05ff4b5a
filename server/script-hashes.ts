import crypto from "node:crypto";

/*
 * The Content-Security-Policy of a cached page (decision 12): it was rendered without a nonce, so
 * its policy lists the sha256 of each inline script it contains instead.
 */

/**
 * 'sha256-…' sources for every inline <script> in an HTML document (those without src). The
 * browser hashes a script element's text exactly as written (script is raw text: no entity
 * decoding), so the bytes between the tags are what is hashed.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(` ${m[1] ?? ""}`)) continue;
    const body = m[2] ?? "";
    if (body === "") continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The per-request policy with its nonce replaced by the cached page's script hashes: the same
 * directives, and script-src allows exactly the inline scripts this stored page contains.
 */
export function policyWithHashes(policy: string, hashes: string[]): string {
  return policy
    .replace(/\s*'nonce-[^']*'/g, "")
    .replace(/(^|;\s*)script-src ([^;]*)/, (_all, lead, sources) => {
      return `${lead}script-src ${[sources.trim(), ...hashes].filter(Boolean).join(" ")}`;
    });
}
