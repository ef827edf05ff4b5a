import path from "node:path";
import express from "express";
import { refuse } from "./edge";

// A missing file is no one's attack: answered in Spanish, not logged.
export const notFound: express.RequestHandler = (req, res) =>
  refuse(req, res, 404, "Archivo no encontrado.", { quiet: true });

/**
 * Local media under /media: only the drops' folder is public. Keys are unique per upload, so a
 * stored file never changes: cache it for a year.
 */
export function localMedia(mediaDir: string): express.Router {
  const router = express.Router();
  router.use(
    "/drops",
    express.static(path.join(mediaDir, "drops"), {
      immutable: true,
      maxAge: "1y",
      index: false,
      // The pieces' photos are shown by other sites too: the e-mails in a webmail, the owner's
      // preview of an e-mail in a sandboxed frame (an origin of its own) (decision 47). Helmet's
      // `same-origin` would have the browser refuse them there.
      setHeaders: (res) => res.setHeader("Cross-Origin-Resource-Policy", "cross-origin"),
    }),
    notFound,
  );
  router.use(notFound);
  return router;
}

/** The built browser assets: Vite puts a content hash in every file name under /assets. */
export function builtAssets(clientDir: string): express.Router {
  const router = express.Router();
  router.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    notFound,
  );
  router.use(express.static(clientDir, { maxAge: "1h", index: false }));
  return router;
}
