import { CATEGORIAS, type Categoria, MATERIALES, type Material, type OptionName } from "~/db/taxonomy";

export type { OptionName };

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
  /** Ring sizes chosen ('7', '7.5'): values of the products' 'Talla' option, in size order. */
  tallas: string[];
  /** Lengths chosen ('45 cm'): values of the products' 'Largo' option, in length order. */
  largos: string[];
  soloDisponibles: boolean;
}

export const NO_FILTERS: ProductFilters = {
  categorias: [],
  materiales: [],
  precios: [],
  tallas: [],
  largos: [],
  soloDisponibles: false,
};

/** A product's one option as the filters read it (decision 34): each value with its own stock. */
export interface FilterableOption {
  name: OptionName;
  values: readonly { value: string; stock: number }[];
}

export interface FilterableProduct {
  categoria: Categoria;
  material: Material;
  priceCents: number;
  stock: number;
  /** Its option ('Talla', 'Largo'); null or absent: a product without sizes. */
  option?: FilterableOption | null;
}

/** Whether any piece is left: a sized product's pieces are its values' (their sum is its stock). */
function available(product: FilterableProduct): boolean {
  return product.option ? product.option.values.some((v) => v.stock > 0) : product.stock > 0;
}

/**
 * A product passes when, for each group with a selection, it matches any selected option of that
 * group; and, with 'Solo disponibles', when a piece of it is left. The sizes and the lengths are
 * one choice of the product's own option (a product has one, 'Talla' or 'Largo'): with any chosen,
 * a product passes when one of its values is chosen (and, with 'Solo disponibles', that value has
 * a piece left); a product without that option does not.
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
  if (filters.tallas.length > 0 || filters.largos.length > 0) {
    const option = product.option;
    const chosen = option ? chosenValues(filters, option.name) : [];
    const hit = option?.values.some(
      (v) => chosen.includes(v.value) && (!filters.soloDisponibles || v.stock > 0),
    );
    if (!hit) return false;
  }
  if (filters.soloDisponibles && !available(product)) return false;
  return true;
}

function chosenValues(filters: ProductFilters, name: OptionName): readonly string[] {
  return name === "Talla" ? filters.tallas : filters.largos;
}

export function filterProducts<T extends FilterableProduct>(products: T[], filters: ProductFilters): T[] {
  return products.filter((p) => matchesFilters(p, filters));
}

/** The URL parameter of each filter group (the filter bar's field names). */
export const SEARCH_KEYS = {
  categorias: "categoria",
  materiales: "material",
  precios: "precio",
  tallas: "talla",
  largos: "largo",
  soloDisponibles: "disponibles",
};

/** At most this many sizes (or lengths) are read from a link; a collection lists far fewer. */
const MAX_CHOSEN_VALUES = 40;

/**
 * Values of an option named in a link, as the owner may have written them (1–20 characters, the
 * database's own bound), once each, in size order. Whether the collection has them is the page's
 * question (`withinChoices`): here a link cannot know.
 */
function pickValues(values: string[]): string[] {
  const plausible = values
    .map((v) => v.trim())
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    .filter((v) => v.length >= 1 && v.length <= 20 && !/[\u0000-\u001f\u007f]/.test(v));
  return sortOptionValues([...new Set(plausible)]).slice(0, MAX_CHOSEN_VALUES);
}

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
    tallas: pickValues(params.getAll(SEARCH_KEYS.tallas)),
    largos: pickValues(params.getAll(SEARCH_KEYS.largos)),
    soloDisponibles: ["1", "true", "on", "si"].includes(params.get(SEARCH_KEYS.soloDisponibles) ?? ""),
  };
}

/** The sizes and lengths a collection's pieces come in: its 'Talla' and 'Largo' filter groups. */
export interface OptionChoices {
  tallas: string[];
  largos: string[];
}

/** The values present among the products, per option, in size order (empty: no such group). */
export function optionChoices(products: readonly FilterableProduct[]): OptionChoices {
  const present = { Talla: new Set<string>(), Largo: new Set<string>() };
  for (const { option } of products) {
    if (!option) continue;
    for (const v of option.values) present[option.name].add(v.value);
  }
  return { tallas: sortOptionValues([...present.Talla]), largos: sortOptionValues([...present.Largo]) };
}

/** The filters without sizes or lengths the collection does not have (a link from elsewhere). */
export function withinChoices(filters: ProductFilters, choices: OptionChoices): ProductFilters {
  return {
    ...filters,
    tallas: filters.tallas.filter((v) => choices.tallas.includes(v)),
    largos: filters.largos.filter((v) => choices.largos.includes(v)),
  };
}

/** The value's number ('6.5' -> 6.5, '6,5' -> 6.5, '45 cm' -> 45); null when it starts otherwise. */
function leadingNumber(value: string): number | null {
  const match = /^\d+(?:[.,]\d+)?/.exec(value.trim());
  return match ? Number(match[0].replace(",", ".")) : null;
}

/**
 * Sizes and lengths in the order a shopper reads them: by their number, smallest first (3, 6,
 * 6.5, 10; '40 cm' before '45 cm'), then any value without a number, alphabetically.
 */
export function sortOptionValues(values: readonly string[]): string[] {
  return [...values].sort((a, b) => {
    const [x, y] = [leadingNumber(a), leadingNumber(b)];
    if (x !== null && y !== null && x !== y) return x - y;
    if (x === null && y !== null) return 1;
    if (x !== null && y === null) return -1;
    return a.localeCompare(b, "es", { numeric: true });
  });
}

/** How many options are chosen (each ticked chip counts once): the number on 'Filtrar (N)'. */
export function activeFilterCount(filters: ProductFilters): number {
  return (
    filters.categorias.length +
    filters.materiales.length +
    filters.precios.length +
    filters.tallas.length +
    filters.largos.length +
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
  for (const t of filters.tallas) params.append(SEARCH_KEYS.tallas, t);
  for (const l of filters.largos) params.append(SEARCH_KEYS.largos, l);
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
