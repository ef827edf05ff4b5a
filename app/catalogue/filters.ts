import { CATEGORIAS, type Categoria, MATERIALES, type Material } from "~/db/taxonomy";

/** The spec's price ranges in centavos: lower bound inclusive, upper bound exclusive. */
export const PRICE_RANGES = [
  { id: "hasta-2000", label: "Hasta $2,000", min: 0, max: 200_000 },
  { id: "2000-6000", label: "$2,000 a $6,000", min: 200_000, max: 600_000 },
  { id: "6000-12000", label: "$6,000 a $12,000", min: 600_000, max: 1_200_000 },
  { id: "12000-20000", label: "$12,000 a $20,000", min: 1_200_000, max: 2_000_000 },
  { id: "desde-20000", label: "$20,000 o más", min: 2_000_000, max: Number.POSITIVE_INFINITY },
] as const;
export type PriceRangeId = (typeof PRICE_RANGES)[number]["id"];

export interface ProductFilters {
  categorias: Categoria[];
  materiales: Material[];
  precios: PriceRangeId[];
  soloDisponibles: boolean;
}

export const NO_FILTERS: ProductFilters = {
  categorias: [],
  materiales: [],
  precios: [],
  soloDisponibles: false,
};

export interface FilterableProduct {
  categoria: Categoria;
  material: Material;
  priceCents: number;
  stock: number;
}

/**
 * A product passes when, for each group with a selection, it matches any selected option of that
 * group; and, with 'Solo disponibles', when its stock is above zero.
 */
export function matchesFilters(product: FilterableProduct, filters: ProductFilters): boolean {
  if (filters.categorias.length > 0 && !filters.categorias.includes(product.categoria)) return false;
  if (filters.materiales.length > 0 && !filters.materiales.includes(product.material)) return false;
  if (filters.precios.length > 0) {
    const inAnyRange = PRICE_RANGES.some(
      (r) => filters.precios.includes(r.id) && product.priceCents >= r.min && product.priceCents < r.max,
    );
    if (!inAnyRange) return false;
  }
  if (filters.soloDisponibles && product.stock <= 0) return false;
  return true;
}

export function filterProducts<T extends FilterableProduct>(products: T[], filters: ProductFilters): T[] {
  return products.filter((p) => matchesFilters(p, filters));
}

/** The URL parameter of each filter group (the filter bar's field names). */
export const SEARCH_KEYS = {
  categorias: "categoria",
  materiales: "material",
  precios: "precio",
  soloDisponibles: "disponibles",
};

function pick<T extends string>(values: string[], allowed: readonly T[]): T[] {
  // Unknown values in a shared link are ignored rather than failing the page.
  return allowed.filter((a) => values.includes(a));
}

/** Reads filters from a URL (so a filtered view can be shared and works without JavaScript). */
export function parseFilters(params: URLSearchParams): ProductFilters {
  return {
    categorias: pick(params.getAll(SEARCH_KEYS.categorias), CATEGORIAS),
    materiales: pick(params.getAll(SEARCH_KEYS.materiales), MATERIALES),
    precios: pick(
      params.getAll(SEARCH_KEYS.precios),
      PRICE_RANGES.map((r) => r.id),
    ),
    soloDisponibles: ["1", "true", "on", "si"].includes(params.get(SEARCH_KEYS.soloDisponibles) ?? ""),
  };
}

/** How many options are chosen (each ticked chip counts once): the number on 'Filtrar (N)'. */
export function activeFilterCount(filters: ProductFilters): number {
  return (
    filters.categorias.length +
    filters.materiales.length +
    filters.precios.length +
    (filters.soloDisponibles ? 1 : 0)
  );
}

/** The collection page's orders; the first is the default and never written in the URL. */
export const SORTS = [
  { id: "recientes", label: "Más recientes" },
  { id: "precio-asc", label: "Precio: menor a mayor" },
  { id: "precio-desc", label: "Precio: mayor a menor" },
] as const;
export type SortId = (typeof SORTS)[number]["id"];
export const DEFAULT_SORT: SortId = "recientes";

/** The URL parameter of the order. */
export const SORT_KEY = "orden";

/** Reads the order from a URL; a missing or unknown value (a hand-edited link) is the default. */
export function parseSort(params: URLSearchParams): SortId {
  const value = params.get(SORT_KEY);
  return SORTS.find((s) => s.id === value)?.id ?? DEFAULT_SORT;
}

export interface SortableProduct {
  priceCents: number;
  /** When the piece was added to its drop. */
  createdAt: Date;
}

/**
 * The products in the chosen order, as a new list. 'Más recientes' puts pieces added to the drop
 * later first; pieces added together (a drop's pieces are usually created at once) and pieces of
 * the same price keep the order they came in, the owner's order in the drop form.
 */
export function sortProducts<T extends SortableProduct>(products: readonly T[], sort: SortId): T[] {
  const by: Record<SortId, (a: T, b: T) => number> = {
    recientes: (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
    "precio-asc": (a, b) => a.priceCents - b.priceCents,
    "precio-desc": (a, b) => b.priceCents - a.priceCents,
  };
  // Array.prototype.sort is stable, so ties keep the incoming order.
  return [...products].sort(by[sort]);
}

export function filtersToSearchParams(filters: ProductFilters, sort: SortId = DEFAULT_SORT): URLSearchParams {
  const params = new URLSearchParams();
  for (const c of filters.categorias) params.append(SEARCH_KEYS.categorias, c);
  for (const m of filters.materiales) params.append(SEARCH_KEYS.materiales, m);
  for (const p of filters.precios) params.append(SEARCH_KEYS.precios, p);
  if (filters.soloDisponibles) params.set(SEARCH_KEYS.soloDisponibles, "1");
  if (sort !== DEFAULT_SORT) params.set(SORT_KEY, sort);
  return params;
}

/**
 * The one address of a filtered, sorted view: known parameters only, in a fixed order. Links the
 * page builds use it, and so does the page cache's key, so that junk or reordered parameters
 * share the entry of the view they show.
 */
export function collectionSearch(filters: ProductFilters, sort: SortId): string {
  const query = filtersToSearchParams(filters, sort).toString();
  return query ? `?${query}` : "";
}
