import type { DropStatus } from "~/db/taxonomy";

/*
 * Drafts and publishing (decision 38). A drop's `visibleFrom` is the moment the public sees it:
 * null while it is a draft, a future moment while 'Visible desde' is still to come. Public pages,
 * the cart and checkout only ever see drops visible at their own `now`; the admin sees them all.
 */

/** Where a drop stands for the public: a draft, published but not yet visible, or visible. */
export type Publication = "borrador" | "programada" | "publicada";

export const PUBLICATION_LABELS: Record<Publication, string> = {
  borrador: "Borrador",
  programada: "Programada",
  publicada: "Publicada",
};

export function publicationOf(visibleFrom: Date | null, now: Date): Publication {
  if (visibleFrom === null) return "borrador";
  return visibleFrom.getTime() <= now.getTime() ? "publicada" : "programada";
}

/** Whether the public sees the drop at `now` (its pages, lists, the sitemap, the cart, checkout). */
export function isVisible(drop: { visibleFrom: Date | null }, now: Date): boolean {
  return publicationOf(drop.visibleFrom, now) === "publicada";
}

/**
 * The admin's tab (Activas, Próximas, Archivadas), one rule from status and dates:
 * archived by hand → Archivadas; public and started (running or ended, 'Finalizado') → Activas;
 * anything else (a draft, not yet visible, or not yet started) → Próximas. The stored status
 * follows: a public, started `proximamente` drop is written `activa` when the admin reads it
 * (see drops-desk/list.server.ts).
 */
export function adminTab(
  drop: { status: DropStatus; visibleFrom: Date | null; startAt: Date },
  now: Date,
): DropStatus {
  if (drop.status === "archivada") return "archivada";
  if (isVisible(drop, now) && drop.startAt.getTime() <= now.getTime()) return "activa";
  return "proximamente";
}

/** Why a 'Visible desde' moment is refused, in Spanish; null when it may be used. */
export function visibleFromRefusal(visibleFrom: Date, drop: { endAt: Date }): string | null {
  if (visibleFrom.getTime() > drop.endAt.getTime()) {
    return "'Visible desde' debe ser antes del fin de la colección.";
  }
  return null;
}
