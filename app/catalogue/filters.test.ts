import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  collectionSearch,
  type FilterableProduct,
  filterProducts,
  filtersToSearchParams,
  matchesFilters,
  NO_FILTERS,
  parseFilters,
  parseSort,
  sortProducts,
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
      soloDisponibles: true,
    };
    const parsed = parseFilters(filtersToSearchParams(filters));
    expect(parsed.categorias).toEqual(["Arete"]);
    expect(new Set(parsed.materiales)).toEqual(new Set(["Oro blanco", "Oro rosa"]));
    expect(parsed.precios).toEqual(["6000-12000"]);
    expect(parsed.soloDisponibles).toBe(true);
  });

  it("ignores unknown values from a hand-edited link", () => {
    const parsed = parseFilters(
      new URLSearchParams("categoria=Reloj&categoria=Collar&precio=gratis&disponibles=x"),
    );
    expect(parsed).toEqual({ categorias: ["Collar"], materiales: [], precios: [], soloDisponibles: false });
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
        soloDisponibles: true,
      }),
    ).toBe(5);
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
