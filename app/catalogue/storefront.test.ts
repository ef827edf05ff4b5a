import { describe, expect, it } from "vitest";
import { dropsForHome, groupByYear, HELD_LABEL, pieceLabel, productTileLabel, stockText } from "./storefront";

const now = new Date("2026-12-02T00:00:00Z");
const d = (id: string, status: "proximamente" | "activa" | "archivada", start: string, end: string) => ({
  id,
  status,
  startAt: new Date(start),
  endAt: new Date(end),
});

describe("dropsForHome", () => {
  it("hides archivada drops and lists the running one first", () => {
    const drops = [
      d("upcoming", "proximamente", "2026-12-10T00:00:00Z", "2026-12-12T00:00:00Z"),
      d("archived", "archivada", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
      d("ended", "activa", "2026-11-01T00:00:00Z", "2026-11-03T00:00:00Z"),
      d("running", "activa", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
    ];
    expect(dropsForHome(drops, now).map((x) => x.id)).toEqual(["running", "upcoming", "ended"]);
  });
});

describe("productTileLabel", () => {
  const running = d("r", "activa", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z");
  it("says upcoming, finished or sold out, in that order of precedence", () => {
    expect(productTileLabel(running, 2, now)).toBeNull();
    expect(productTileLabel(running, 0, now)).toBe("Producto agotado");
    expect(productTileLabel({ ...running, status: "archivada" }, 2, now)).toBe("Colección finalizada");
    expect(productTileLabel(running, 0, new Date("2026-12-04T00:00:00Z"))).toBe("Colección finalizada");
    expect(productTileLabel(running, 0, new Date("2026-11-30T00:00:00Z"))).toBe("Disponible próximamente");
  });
});

describe("pieceLabel", () => {
  it("gives the same labels from a drop's time state, as pages recompute them on the clock", () => {
    expect(pieceLabel("running", false, 1)).toBeNull();
    expect(pieceLabel("running", false, 0)).toBe("Producto agotado");
    expect(pieceLabel("running", true, 1)).toBe("Colección finalizada");
    expect(pieceLabel("ended", false, 1)).toBe("Colección finalizada");
    expect(pieceLabel("pending", false, 0)).toBe("Disponible próximamente");
    expect(pieceLabel("running", false, 0, 2)).toBe(HELD_LABEL);
  });
});

describe("pieces held by unpaid checkouts", () => {
  const running = d("r", "activa", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z");
  it("read 'Apartado' only while the drop sells and nothing else is left", () => {
    expect(productTileLabel(running, 0, now, 2)).toBe(HELD_LABEL);
    expect(productTileLabel(running, 1, now, 2)).toBeNull();
    expect(productTileLabel(running, 0, now, 0)).toBe("Producto agotado");
    expect(productTileLabel(running, 0, new Date("2026-12-04T00:00:00Z"), 2)).toBe("Colección finalizada");
  });
  it("the product page counts what is left when it is little", () => {
    expect(stockText(5, 0)).toBe("Stock: 5 piezas");
    expect(stockText(3, 0)).toBe("Quedan 3");
    expect(stockText(1, 0)).toBe("Queda 1");
    expect(stockText(0, 1)).toBe(HELD_LABEL);
    expect(stockText(0, 0)).toBe("Producto agotado");
  });
});

describe("groupByYear", () => {
  it("groups by year of creation, newest first", () => {
    const drops = [
      { id: "a", createdAt: new Date("2025-03-01T00:00:00Z") },
      { id: "b", createdAt: new Date("2026-05-01T00:00:00Z") },
      { id: "c", createdAt: new Date("2026-10-01T00:00:00Z") },
    ];
    const groups = groupByYear(drops, (date) => date.getUTCFullYear());
    expect(groups.map((g) => [g.year, g.drops.map((x) => x.id)])).toEqual([
      [2026, ["c", "b"]],
      [2025, ["a"]],
    ]);
  });
});
