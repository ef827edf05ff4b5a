import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  collectionSearch,
  type FilterableOption,
  type FilterableProduct,
  filterProducts,
  filtersToSearchParams,
  matchesFilters,
  NO_FILTERS,
  optionChoices,
  parseFilters,
  parseSort,
  sortOptionValues,
  sortProducts,
  withinChoices,
} from "./filters";

const product = (over: Partial<FilterableProduct> = {}): FilterableProduct => ({
  categoria: "Anillo",
  material: "Oro amarillo",
  priceCents: 150_000,
  stock: 3,
  ...over,
});

describe("matchesFilters", () => {
  it("passes everything when no filter is on", () => {
    expect(matchesFilters(product({ stock: 0 }), NO_FILTERS)).toBe(true);
  });

  it("matches any selected option within a group, and every group", () => {
    const f = { ...NO_FILTERS, categorias: ["Anillo", "Collar"] as const, materiales: ["Oro rosa"] as const };
    const filters = { ...f, categorias: [...f.categorias], materiales: [...f.materiales] };
    expect(matchesFilters(product({ categoria: "Collar", material: "Oro rosa" }), filters)).toBe(true);
    expect(matchesFilters(product({ categoria: "Anillo", material: "Oro rosa" }), filters)).toBe(true);
    expect(matchesFilters(product({ categoria: "Pulsera", material: "Oro rosa" }), filters)).toBe(false);
    expect(matchesFilters(product({ categoria: "Anillo", material: "Oro blanco" }), filters)).toBe(false);
  });

  it("price ranges include the lower bound and exclude the upper one", () => {
    const f = (precios: ("hasta-2000" | "2000-6000" | "6000-12000" | "12000-20000" | "desde-20000")[]) => ({
      ...NO_FILTERS,
      precios,
    });
    expect(matchesFilters(product({ priceCents: 199_999 }), f(["hasta-2000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 200_000 }), f(["hasta-2000"]))).toBe(false);
    expect(matchesFilters(product({ priceCents: 200_000 }), f(["2000-6000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 599_999 }), f(["2000-6000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 600_000 }), f(["2000-6000"]))).toBe(false);
    expect(matchesFilters(product({ priceCents: 600_000 }), f(["6000-12000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 1_200_000 }), f(["12000-20000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 2_000_000 }), f(["12000-20000"]))).toBe(false);
    expect(matchesFilters(product({ priceCents: 2_000_000 }), f(["desde-20000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 0 }), f(["hasta-2000"]))).toBe(true);
    expect(matchesFilters(product({ priceCents: 650_000 }), f(["hasta-2000", "6000-12000"]))).toBe(true);
  });

  it("'Solo disponibles' keeps only stock above zero", () => {
    const filters = { ...NO_FILTERS, soloDisponibles: true };
    expect(matchesFilters(product({ stock: 1 }), filters)).toBe(true);
    expect(matchesFilters(product({ stock: 0 }), filters)).toBe(false);
  });

  it("filterProducts keeps the order of what passes", () => {
    const list = [product({ stock: 0 }), product({ stock: 2 }), product({ stock: 5 })];
    expect(filterProducts(list, { ...NO_FILTERS, soloDisponibles: true }).map((p) => p.stock)).toEqual([
      2, 5,
    ]);
  });
});

describe("filters in the URL", () => {
  it("round-trips through search params", () => {
    const filters = {
      categorias: ["Arete" as const],
      materiales: ["Oro blanco" as const, "Oro rosa" as const],
      precios: ["6000-12000" as const],
      tallas: ["7", "7.5"],
      largos: [],
      soloDisponibles: true,
    };
    const parsed = parseFilters(filtersToSearchParams(filters));
    expect(parsed.categorias).toEqual(["Arete"]);
    expect(new Set(parsed.materiales)).toEqual(new Set(["Oro blanco", "Oro rosa"]));
    expect(parsed.precios).toEqual(["6000-12000"]);
    expect(parsed.tallas).toEqual(["7", "7.5"]);
    expect(parsed.soloDisponibles).toBe(true);
  });

  it("ignores unknown values from a hand-edited link", () => {
    const parsed = parseFilters(
      new URLSearchParams("categoria=Reloj&categoria=Collar&precio=gratis&disponibles=x"),
    );
    expect(parsed).toEqual({
      categorias: ["Collar"],
      materiales: [],
      precios: [],
      tallas: [],
      largos: [],
      soloDisponibles: false,
    });
  });
});

describe("the count on 'Filtrar (N)'", () => {
  it("counts every chosen option and 'Solo disponibles', and nothing when no filter is on", () => {
    expect(activeFilterCount(NO_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...NO_FILTERS, categorias: ["Anillo"] })).toBe(1);
    expect(
      activeFilterCount({
        categorias: ["Anillo", "Collar"],
        materiales: ["Oro rosa"],
        precios: ["hasta-2000"],
        tallas: ["7", "8"],
        largos: ["45 cm"],
        soloDisponibles: true,
      }),
    ).toBe(8);
  });

  it("counts what the page applies, not what a link repeats or invents", () => {
    const params = new URLSearchParams("categoria=Anillo&categoria=Anillo&categoria=Reloj&orden=precio-asc");
    expect(activeFilterCount(parseFilters(params))).toBe(1);
  });
});

describe("sorting", () => {
  const day = (n: number) => new Date(Date.UTC(2026, 10, n));
  const pieces = [
    { name: "a", priceCents: 300_000, createdAt: day(1) },
    { name: "b", priceCents: 100_000, createdAt: day(1) },
    { name: "c", priceCents: 900_000, createdAt: day(5) },
    { name: "d", priceCents: 100_000, createdAt: day(3) },
  ];
  const names = (list: { name: string }[]) => list.map((p) => p.name).join("");

  it("newest first by default, keeping the drop's own order among pieces added together", () => {
    expect(names(sortProducts(pieces, "recientes"))).toBe("cdab");
  });

  it("by price either way, equal prices in the default order they came in", () => {
    expect(names(sortProducts(pieces, "precio-asc"))).toBe("bdac");
    expect(names(sortProducts(pieces, "precio-desc"))).toBe("cabd");
  });

  it("leaves the list it was given alone", () => {
    sortProducts(pieces, "precio-asc");
    expect(names(pieces)).toBe("abcd");
  });

  it("reads the order from the URL; a missing or unknown value is the default", () => {
    expect(parseSort(new URLSearchParams("orden=precio-asc"))).toBe("precio-asc");
    expect(parseSort(new URLSearchParams("orden=precio-desc"))).toBe("precio-desc");
    expect(parseSort(new URLSearchParams(""))).toBe("recientes");
    expect(parseSort(new URLSearchParams("orden=PRECIO-ASC"))).toBe("recientes");
    expect(parseSort(new URLSearchParams("orden=%00%27;drop"))).toBe("recientes");
  });
});

describe("one address per view", () => {
  it("keeps filters and order, in a fixed order, and drops the default order and anything unknown", () => {
    const params = new URLSearchParams(
      "utm_source=ig&orden=precio-desc&material=Oro+rosa&categoria=Collar&categoria=Anillo&disponibles=on",
    );
    expect(collectionSearch(parseFilters(params), parseSort(params))).toBe(
      "?categoria=Collar&categoria=Anillo&material=Oro+rosa&disponibles=1&orden=precio-desc",
    );
    expect(collectionSearch(NO_FILTERS, "recientes")).toBe("");
    expect(collectionSearch(NO_FILTERS, "precio-asc")).toBe("?orden=precio-asc");
  });
});

describe("sizes and lengths", () => {
  const sizes = (stock: Record<string, number>): FilterableOption => ({
    name: "Talla",
    values: Object.entries(stock).map(([value, n]) => ({ value, stock: n })),
  });
  const ring = (stock: Record<string, number>, name = "ring") => ({
    ...product({ stock: Object.values(stock).reduce((a, b) => a + b, 0) }),
    option: sizes(stock),
    name,
  });
  const chain = (stock: number, largo: string, name = "chain") => ({
    ...product({ categoria: "Collar", stock }),
    option: { name: "Largo" as const, values: [{ value: largo, stock }] },
    name,
  });
  const plain = (stock: number, name = "plain") => ({ ...product({ stock }), option: null, name });
  const names = (list: { name: string }[]) => list.map((p) => p.name);

  it("a chosen size keeps pieces that come in it, and hides those that do not or have no sizes", () => {
    const list = [ring({ "6": 1, "7": 0 }, "a"), ring({ "7.5": 2 }, "b"), ring({ "8": 1 }, "c"), plain(3)];
    expect(names(filterProducts(list, { ...NO_FILTERS, tallas: ["7"] }))).toEqual(["a"]);
    expect(names(filterProducts(list, { ...NO_FILTERS, tallas: ["7", "7.5"] }))).toEqual(["a", "b"]);
    expect(names(filterProducts(list, { ...NO_FILTERS, tallas: ["9"] }))).toEqual([]);
  });

  it("with 'Solo disponibles', the chosen size itself must have a piece left", () => {
    const list = [ring({ "6": 1, "7": 0 }, "a"), ring({ "7": 1, "8": 0 }, "b")];
    const filters = { ...NO_FILTERS, tallas: ["7"], soloDisponibles: true };
    expect(names(filterProducts(list, filters))).toEqual(["b"]);
    expect(names(filterProducts(list, { ...filters, tallas: ["7", "6"] }))).toEqual(["a", "b"]);
  });

  it("'Solo disponibles' alone keeps a sized piece while any of its sizes has a piece left", () => {
    const list = [ring({ "6": 0, "7": 1 }, "a"), ring({ "6": 0, "7": 0 }, "b"), plain(1), plain(0, "gone")];
    expect(names(filterProducts(list, { ...NO_FILTERS, soloDisponibles: true }))).toEqual(["a", "plain"]);
  });

  it("sizes and lengths are one choice of each piece's own option: a ring by its size, a chain by its length", () => {
    const list = [ring({ "7": 1 }), chain(1, "45 cm"), chain(1, "40 cm", "short"), plain(1)];
    const filters = { ...NO_FILTERS, tallas: ["7"], largos: ["45 cm"] };
    expect(names(filterProducts(list, filters))).toEqual(["ring", "chain"]);
    expect(names(filterProducts(list, { ...NO_FILTERS, largos: ["40 cm"] }))).toEqual(["short"]);
  });

  it("a ring's '7' is not a chain's '7': each group reads its own option", () => {
    const list = [ring({ "7": 1 }), { ...chain(1, "7"), name: "chain" }];
    expect(names(filterProducts(list, { ...NO_FILTERS, largos: ["7"] }))).toEqual(["chain"]);
  });

  it("sorts sizes by number, halves in place, and lengths by their number", () => {
    expect(sortOptionValues(["10", "6.5", "7", "4.5", "6", "12", "5,5"])).toEqual([
      "4.5",
      "5,5",
      "6",
      "6.5",
      "7",
      "10",
      "12",
    ]);
    expect(sortOptionValues(["50 cm", "40 cm", "45 cm", "Ajustable"])).toEqual([
      "40 cm",
      "45 cm",
      "50 cm",
      "Ajustable",
    ]);
  });

  it("the collection's groups list the values its pieces come in, once each, in order", () => {
    const list = [ring({ "8": 0, "6.5": 1 }), ring({ "7": 1, "6.5": 0 }), chain(1, "45 cm"), plain(1)];
    expect(optionChoices(list)).toEqual({ tallas: ["6.5", "7", "8"], largos: ["45 cm"] });
    expect(optionChoices([plain(1)])).toEqual({ tallas: [], largos: [] });
  });

  it("reads sizes from a link in size order, once each; values the collection lacks are ignored", () => {
    const params = new URLSearchParams("talla=7.5&talla=7&talla=7&talla=%20&largo=45+cm&talla=x%00");
    const parsed = parseFilters(params);
    expect(parsed.tallas).toEqual(["7", "7.5"]);
    expect(parsed.largos).toEqual(["45 cm"]);
    expect(parseFilters(new URLSearchParams(`talla=${"9".repeat(21)}`)).tallas).toEqual([]);
    const within = withinChoices(parseFilters(new URLSearchParams("talla=7&talla=99&largo=45+cm")), {
      tallas: ["6", "7"],
      largos: [],
    });
    expect(within.tallas).toEqual(["7"]);
    expect(within.largos).toEqual([]);
  });

  it("one address whatever order a link names its sizes in", () => {
    const a = parseFilters(new URLSearchParams("talla=8&categoria=Anillo&talla=6.5"));
    const b = parseFilters(new URLSearchParams("categoria=Anillo&talla=6.5&talla=8"));
    expect(collectionSearch(a, "recientes")).toBe("?categoria=Anillo&talla=6.5&talla=8");
    expect(collectionSearch(b, "recientes")).toBe(collectionSearch(a, "recientes"));
  });
});
