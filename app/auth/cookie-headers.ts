/** Reading and trimming the Cookie header of the requests passed on to the sign-in library. */

/** One cookie's value from a request's Cookie header. */
export function cookieValue(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A signed cookie's value without its signature (the library checks the signature itself). */
export function unsigned(value: string): string {
  const dot = value.lastIndexOf(".");
  return dot > 0 ? value.slice(0, dot) : "";
}

/** A copy of the headers whose Cookie header leaves out one cookie. */
export function withoutCookie(headers: Headers, name: string): Headers {
  const copy = new Headers(headers);
  const kept = (headers.get("cookie") ?? "")
    .split(";")
    .filter((part) => part.slice(0, part.indexOf("=")).trim() !== name)
    .join(";");
  if (kept.trim()) copy.set("cookie", kept);
  else copy.delete("cookie");
  return copy;
}
