// The spec's fixed vocabularies. Stored exactly as shown to shoppers (Spanish labels),
// and enforced again by CHECK constraints in the database.

export const CATEGORIAS = ["Pulsera", "Collar", "Arete", "Anillo"] as const;
export type Categoria = (typeof CATEGORIAS)[number];

export const MATERIALES = ["Oro amarillo", "Oro rosa", "Oro blanco"] as const;
export type Material = (typeof MATERIALES)[number];

export const DROP_STATUSES = ["proximamente", "activa", "archivada"] as const;
export type DropStatus = (typeof DROP_STATUSES)[number];

/** A product has one main image and at most this many extra images. */
export const MAX_EXTRA_IMAGES = 4;
