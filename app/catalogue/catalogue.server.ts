import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { DropRow, MediaRow, ProductRow } from "~/db/schema";
import {
  type Categoria,
  type DropStatus,
  MAX_EDITION,
  MAX_EXTRA_IMAGES,
  MAX_PRICE_CENTS,
  MAX_STOCK,
  type Material,
  type OptionName,
} from "~/db/taxonomy";
import { isId, newId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { loadMedia } from "~/media/media.server";
import { normalizeDropStatus } from "./drop-status";
import { isKarat, type MetalFacts, metalFactsOf } from "./metal";
import { MAX_STONES_LENGTH, MAX_WEIGHT_MG } from "./metal-input";
import { loadOptionValues, type OptionValue, optionOf, type ProductOption } from "./options.server";

export interface Product {
  id: string;
  dropId: string;
  name: string;
  description: string;
  categoria: Categoria;
  material: Material;
  priceCents: number;
  stock: number;
  image: MediaRow | null;
  /** When the piece was added to its drop ('Más recientes'). */
  createdAt: Date;
  /** Karat, weight and stones; each null when not said. */
  metal: MetalFacts;
  /** A limited edition of this many numbered pieces; null: not numbered. */
  editionSize: number | null;
  /** Its one option ('Talla', 'Largo') with each value's stock (decision 34); null: none. */
  option: ProductOption | null;
}

/** A product with its gallery, as the product page shows it. */
export interface ProductWithImages extends Product {
  extraImages: MediaRow[];
}

/** A drop without its products (the /colecciones listing). */
export interface DropInfo {
  id: string;
  name: string;
  smallDescription: string;
  fullDescription: string;
  description: string;
  fechas: string;
  startAt: Date;
  endAt: Date;
  status: DropStatus;
  createdAt: Date;
  /** From when the public sees it (decision 38); null: a draft. */
  visibleFrom: Date | null;
  image: MediaRow | null;
  video: MediaRow | null;
  /** 'Máximo N por persona'; null: no limit of its own. */
  maxPerOrder: number | null;
  /** How long a checkout holds this drop's pieces, in minutes. */
  holdMinutes: number;
  /** The opening's rules (decision 27). */
  opening: {
    lotterySeconds: number;
    openingMinutes: number;
    openingHoldMinutes: number;
    openingHoldsPerAddress: number;
    /** 'Solo tarjeta': hours from the start with no OXXO nor SPEI (decision 42). */
    cardOnlyHours: number;
  };
}

export interface Drop<P extends Product = Product> extends DropInfo {
  products: P[];
}

/**
 * Who reads: `{ visibleAt: now }` is the public, who sees only drops published by `now` (decision
 * 38); without it, the admin, who sees drafts too.
 */
export interface DropReader {
  visibleAt?: Date;
}

/**
 * Every drop with its products (main image only), newest first; `{ products: false }` skips the
 * products; `{ visibleAt }` keeps the drops the public sees then.
 */
export function listDrops(db: Db, options?: DropReader & { products?: true }): Promise<Drop[]>;
export function listDrops(db: Db, options: DropReader & { products: false }): Promise<DropInfo[]>;
export async function listDrops(
  db: Db,
  options: DropReader & { products?: boolean } = {},
): Promise<DropInfo[]> {
  const { visibleAt } = options;
  const drops = await db
    .selectFrom("drops")
    .selectAll()
    .$if(visibleAt !== undefined, (qb) =>
      qb.where("visible_from", "<=", toTimestamp(visibleAt ?? new Date())),
    )
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  if (options.products === false) {
    const media = await loadMedia(
      db,
      drops.flatMap((d) => [d.image_id, d.video_id]),
    );
    return drops.map((d) => toDropInfo(d, media));
  }
  return assemble(db, drops);
}

/**
 * One drop with its products; `{ extraImages: true }` also loads each product's gallery;
 * `{ visibleAt }`: null unless the public sees it then.
 */
export function getDrop(
  db: Db,
  id: string,
  options?: DropReader & { extraImages?: false },
): Promise<Drop | null>;
export function getDrop(
  db: Db,
  id: string,
  options: DropReader & { extraImages: true },
): Promise<Drop<ProductWithImages> | null>;
export async function getDrop(
  db: Db,
  id: string,
  options: DropReader & { extraImages?: boolean } = {},
): Promise<Drop | null> {
  const { visibleAt } = options;
  const row = await db
    .selectFrom("drops")
    .selectAll()
    .where("id", "=", id)
    .$if(visibleAt !== undefined, (qb) =>
      qb.where("visible_from", "<=", toTimestamp(visibleAt ?? new Date())),
    )
    .executeTakeFirst();
  if (!row) return null;
  const [drop] = await assemble(db, [row]);
  if (!drop) return null;
  return options.extraImages ? withExtraImages(db, drop) : drop;
}

export async function countDrops(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom("drops")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function assemble(db: Db, drops: DropRow[]): Promise<Drop[]> {
  if (drops.length === 0) return [];
  const dropIds = drops.map((d) => d.id);
  const products = await db
    .selectFrom("products")
    .selectAll()
    .where("drop_id", "in", dropIds)
    .orderBy("drop_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
  const media = await loadMedia(db, [
    ...drops.flatMap((d) => [d.image_id, d.video_id]),
    ...products.map((p) => p.image_id),
  ]);
  const values = await loadOptionValues(db, products);
  const productsByDrop = new Map<string, Product[]>();
  for (const p of products) {
    const list = productsByDrop.get(p.drop_id) ?? [];
    list.push(toProduct(p, p.image_id ? (media.get(p.image_id) ?? null) : null, values));
    productsByDrop.set(p.drop_id, list);
  }
  return drops.map((d) => ({ ...toDropInfo(d, media), products: productsByDrop.get(d.id) ?? [] }));
}

/** Adds each product's extra images, in their order, in one query. */
async function withExtraImages(db: Db, drop: Drop): Promise<Drop<ProductWithImages>> {
  const rows =
    drop.products.length === 0
      ? []
      : await db
          .selectFrom("product_images")
          .innerJoin("media", "media.id", "product_images.media_id")
          .selectAll("media")
          .select("product_images.product_id")
          .where(
            "product_images.product_id",
            "in",
            drop.products.map((p) => p.id),
          )
          .orderBy("product_images.position")
          .execute();
  const extrasByProduct = new Map<string, MediaRow[]>();
  for (const { product_id, ...media } of rows) {
    const list = extrasByProduct.get(product_id) ?? [];
    list.push(media);
    extrasByProduct.set(product_id, list);
  }
  return {
    ...drop,
    products: drop.products.map((p) => ({ ...p, extraImages: extrasByProduct.get(p.id) ?? [] })),
  };
}

function toDropInfo(d: DropRow, media: Map<string, MediaRow>): DropInfo {
  const pick = (id: string | null) => (id ? (media.get(id) ?? null) : null);
  return {
    id: d.id,
    name: d.name,
    smallDescription: d.small_description,
    fullDescription: d.full_description,
    description: d.description,
    fechas: d.fechas,
    startAt: toDate(d.start_at),
    endAt: toDate(d.end_at),
    status: d.status,
    createdAt: toDate(d.created_at),
    visibleFrom: d.visible_from === null ? null : toDate(d.visible_from),
    image: pick(d.image_id),
    video: pick(d.video_id),
    maxPerOrder: d.max_per_order,
    holdMinutes: d.hold_minutes,
    opening: {
      lotterySeconds: d.lottery_seconds,
      openingMinutes: d.opening_minutes,
      openingHoldMinutes: d.opening_hold_minutes,
      openingHoldsPerAddress: d.opening_holds_per_address,
      cardOnlyHours: d.card_only_hours,
    },
  };
}

function toProduct(
  p: ProductRow,
  image: MediaRow | null,
  values: ReadonlyMap<string, OptionValue[]>,
): Product {
  return {
    id: p.id,
    dropId: p.drop_id,
    name: p.name,
    description: p.description,
    categoria: p.categoria,
    material: p.material,
    priceCents: p.price_cents,
    stock: p.stock,
    image,
    createdAt: toDate(p.created_at),
    metal: metalFactsOf(p),
    editionSize: p.edition_size,
    option: optionOf(p, values),
  };
}

export interface NewProduct {
  name: string;
  description?: string;
  categoria: Categoria;
  material: Material;
  priceCents: number;
  stock: number;
  imageId: string | null;
  extraImageIds?: string[];
  /** The metal's facts; absent or null when not said. */
  metal?: Partial<MetalFacts>;
  /** A limited edition of this many numbered pieces; absent or null: not numbered. */
  editionSize?: number | null;
  /**
   * The product's one option ('Talla', 'Largo') and its values, each with its own stock (decision
   * 34); the product's stock is then their sum, whatever `stock` says.
   */
  option?: { name: OptionName; values: { value: string; stock: number }[] } | null;
}

export interface NewDrop {
  /** Chosen by the caller when media must be stored under the drop's folder before it exists. */
  id?: string;
  name: string;
  smallDescription?: string;
  fullDescription?: string;
  description?: string;
  fechas?: string;
  startAt: Date;
  endAt: Date;
  status?: string;
  /** Defaults to now; the demo catalogue back-dates its older drops. */
  createdAt?: Date;
  /**
   * From when the public sees it (decision 38); null: a draft. Defaults to `PUBLIC_ALL_ALONG`:
   * the seed, scripts and tests make public drops unless they ask for a draft, whatever moment
   * they later read at.
   */
  visibleFrom?: Date | null;
  imageId?: string | null;
  videoId?: string | null;
  maxPerOrder?: number | null;
  holdMinutes?: number;
  products: NewProduct[];
}

export class InvalidDrop extends Error {}

/**
 * The `visibleFrom` of a drop written outside the admin's form (the demo seed, scripts, tests):
 * public at any moment anyone reads it, including a test's clock set in the past. It is the
 * column's default (migration 0025), so a writer that does not name the column gets it too.
 */
export const PUBLIC_ALL_ALONG = new Date("2000-01-01T00:00:00.000Z");

/** Creates a drop and its products in one transaction. New drops start as `proximamente`. */
export async function createDrop(db: Db, input: NewDrop, now = new Date()): Promise<string> {
  return db.transaction().execute((trx) => insertDrop(trx, input, now));
}

/** Writes a drop and its products with the given executor, inside the caller's transaction. */
export async function insertDrop(trx: Db, input: NewDrop, now = new Date()): Promise<string> {
  const status = normalizeDropStatus(input.status ?? "proximamente");
  if (!status) throw new InvalidDrop(`Estado de colección desconocido: ${input.status}`);
  if (input.endAt.getTime() < input.startAt.getTime()) {
    throw new InvalidDrop("La fecha de fin debe ser posterior a la de inicio.");
  }
  for (const p of input.products) {
    if ((p.extraImageIds?.length ?? 0) > MAX_EXTRA_IMAGES) {
      throw new InvalidDrop(`Un producto admite hasta ${MAX_EXTRA_IMAGES} imágenes extra.`);
    }
    // The drop form's caps hold for every writer (seed, scripts), so order sums stay in range.
    if (!Number.isSafeInteger(p.priceCents) || p.priceCents < 0 || p.priceCents > MAX_PRICE_CENTS) {
      throw new InvalidDrop(`El precio de ${p.name} debe ser de $0 a ${formatMXN(MAX_PRICE_CENTS)}.`);
    }
    if (!Number.isSafeInteger(p.stock) || p.stock < 0 || p.stock > MAX_STOCK) {
      throw new InvalidDrop(`El stock de ${p.name} debe ser de 0 a ${MAX_STOCK} piezas.`);
    }
    const { karat = null, weightMg = null, stones = null } = p.metal ?? {};
    if (karat !== null && !isKarat(karat)) throw new InvalidDrop(`Quilates de ${p.name}: 10, 14 o 18.`);
    if (weightMg !== null && (!Number.isSafeInteger(weightMg) || weightMg <= 0 || weightMg > MAX_WEIGHT_MG)) {
      throw new InvalidDrop(`El peso de ${p.name} debe ser mayor a 0 y de hasta 1000 g.`);
    }
    if (stones !== null && (stones.trim() === "" || stones.length > MAX_STONES_LENGTH)) {
      throw new InvalidDrop(`Piedras de ${p.name}: de 1 a ${MAX_STONES_LENGTH} caracteres.`);
    }
    if (p.option) {
      const values = p.option.values;
      if (values.length === 0 || new Set(values.map((v) => v.value.trim())).size !== values.length) {
        throw new InvalidDrop(`${p.option.name} de ${p.name}: escribe cada valor una vez.`);
      }
      for (const v of values) {
        if (v.value.trim() === "" || v.value.length > 20) {
          throw new InvalidDrop(`${p.option.name} de ${p.name}: cada valor de 1 a 20 caracteres.`);
        }
        if (!Number.isSafeInteger(v.stock) || v.stock < 0 || v.stock > MAX_STOCK) {
          throw new InvalidDrop(`El stock de ${p.name} ${v.value} debe ser de 0 a ${MAX_STOCK} piezas.`);
        }
      }
    }
    const edition = p.editionSize ?? null;
    if (edition !== null && (!Number.isSafeInteger(edition) || edition < 1 || edition > MAX_EDITION)) {
      throw new InvalidDrop(`La edición de ${p.name} debe ser de 1 a ${MAX_EDITION} piezas.`);
    }
  }
  if (input.id !== undefined && !isId(input.id)) throw new InvalidDrop("Identificador inválido.");
  const id = input.id ?? newId();
  const stamp = toTimestamp(input.createdAt ?? now);
  await trx
    .insertInto("drops")
    .values({
      id,
      name: input.name,
      small_description: input.smallDescription ?? "",
      full_description: input.fullDescription ?? "",
      description: input.description ?? "",
      fechas: input.fechas ?? "",
      start_at: toTimestamp(input.startAt),
      end_at: toTimestamp(input.endAt),
      status,
      image_id: input.imageId ?? null,
      video_id: input.videoId ?? null,
      max_per_order: input.maxPerOrder ?? null,
      hold_minutes: input.holdMinutes,
      // Unsaid: the column's default, `PUBLIC_ALL_ALONG`.
      ...(input.visibleFrom === undefined
        ? {}
        : { visible_from: input.visibleFrom === null ? null : toTimestamp(input.visibleFrom) }),
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  for (const [position, p] of input.products.entries()) {
    const productId = newId();
    await trx
      .insertInto("products")
      .values({
        id: productId,
        drop_id: id,
        position,
        name: p.name,
        description: p.description ?? "",
        categoria: p.categoria,
        material: p.material,
        price_cents: p.priceCents,
        stock: p.option ? p.option.values.reduce((sum, v) => sum + v.stock, 0) : p.stock,
        option_name: p.option?.name ?? null,
        image_id: p.imageId,
        karat: p.metal?.karat ?? null,
        weight_mg: p.metal?.weightMg ?? null,
        stones: p.metal?.stones ?? null,
        edition_size: p.editionSize ?? null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    if (p.option) {
      await trx
        .insertInto("product_options")
        .values(
          p.option.values.map((v, i) => ({
            id: newId(),
            product_id: productId,
            value: v.value.trim(),
            position: i,
            stock: v.stock,
          })),
        )
        .execute();
    }
    const extras = p.extraImageIds ?? [];
    if (extras.length > 0) {
      await trx
        .insertInto("product_images")
        .values(extras.map((mediaId, i) => ({ product_id: productId, position: i + 1, media_id: mediaId })))
        .execute();
    }
  }
  return id;
}

export interface ProductWithDrop {
  product: Product;
  /** `maxPerOrder`: the drop's 'Máximo N por persona', null for none. */
  drop: { id: string; status: DropStatus; startAt: Date; endAt: Date; maxPerOrder: number | null };
}

/**
 * Current state of the given products and their drops (for revalidating a cart). Unknown ids are
 * skipped, and so are the pieces of drops the public does not see at `visibleAt` (decision 38).
 */
export async function getProductsWithDrops(
  db: Db,
  ids: string[],
  visibleAt: Date,
): Promise<ProductWithDrop[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("products")
    .innerJoin("drops", "drops.id", "products.drop_id")
    .selectAll("products")
    .select([
      "drops.status as drop_status",
      "drops.start_at as drop_start_at",
      "drops.end_at as drop_end_at",
      "drops.max_per_order as drop_max_per_order",
    ])
    .where("products.id", "in", ids)
    .where("drops.visible_from", "<=", toTimestamp(visibleAt))
    .execute();
  const media = await loadMedia(
    db,
    rows.map((r) => r.image_id),
  );
  const values = await loadOptionValues(db, rows);
  return rows.map((r) => ({
    product: toProduct(r, r.image_id ? (media.get(r.image_id) ?? null) : null, values),
    drop: {
      id: r.drop_id,
      status: r.drop_status,
      startAt: toDate(r.drop_start_at),
      endAt: toDate(r.drop_end_at),
      maxPerOrder: r.drop_max_per_order,
    },
  }));
}
