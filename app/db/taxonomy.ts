import { MAX_CHARGE_CENTS } from "~/lib/money";

// The spec's fixed vocabularies. Stored exactly as shown to shoppers (Spanish labels),
// and enforced again by CHECK constraints in the database. Below them, the caps of one product that
// every writer keeps to (the drop form, the seed, scripts).

export const CATEGORIAS = ["Pulsera", "Collar", "Arete", "Anillo"] as const;
export type Categoria = (typeof CATEGORIAS)[number];

export const MATERIALES = ["Oro amarillo", "Oro rosa", "Oro blanco"] as const;
export type Material = (typeof MATERIALES)[number];

/** A product's one option (decision 34): 'Talla' for rings, 'Largo' for necklaces and bracelets. */
export const OPTION_NAMES = ["Talla", "Largo"] as const;
export type OptionName = (typeof OPTION_NAMES)[number];

export const DROP_STATUSES = ["proximamente", "activa", "archivada"] as const;
export type DropStatus = (typeof DROP_STATUSES)[number];

/** A product has one main image and at most this many extra images. */
export const MAX_EXTRA_IMAGES = 4;

/**
 * A price above this is a typo. It is also the most one payment can be, so a piece at the cap can
 * still be bought, and far below PostgreSQL's 32-bit `integer` (see config/ceilings.ts).
 */
export const MAX_PRICE_CENTS = MAX_CHARGE_CENTS; // $999,999.99
/** Pieces of one product: also what a save may raise its stock to (see drops-desk/update.server.ts). */
export const MAX_STOCK = 10_000;
/** The most pieces a limited edition may number (migration 0020's CHECK says the same). */
export const MAX_EDITION = 100_000;
