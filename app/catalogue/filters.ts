import { CATEGORIAS, type Categoria, MATERIALES, type Material } from "./taxonomy";

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

export function filtersToSearchParams(filters: ProductFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const c of filters.categorias) params.append(SEARCH_KEYS.categorias, c);
  for (const m of filters.materiales) params.append(SEARCH_KEYS.materiales, m);
  for (const p of filters.precios) params.append(SEARCH_KEYS.precios, p);
  if (filters.soloDisponibles) params.set(SEARCH_KEYS.soloDisponibles, "1");
  return params;
}
