import type express from "express";

/**
 * The shop's own address when PUBLIC_URL is not set: the one it listens on (what it prints at
 * start), never the request's Host header, which anyone can set (absolute links in pages,
 * previews, the sitemap and e-mails are built from it, and pages may be cached).
 */
export function listeningOrigin(req: express.Request, host: string): string {
  // A connection already closed (the client left mid-request) has no local port any more.
  return originOf(req.protocol, host, req.socket.localPort ?? req.app.locals.listenPort);
}

export function originOf(protocol: string, host: string, port: number | undefined): string {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  const name = wildcard ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return port ? `${protocol}://${name}:${port}` : `${protocol}://${name}`;
}
