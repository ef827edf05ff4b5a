import { describe, expect, it } from "vitest";
import { catalogueProblem, REGIMENES, regimenOf, USOS, usoOf, usosFor } from "./sat-catalogues";

describe("the SAT's catalogues (c_RegimenFiscal, c_UsoCFDI)", () => {
  it("has each régimen once, with its description and who it applies to", () => {
    expect(new Set(REGIMENES.map((r) => r.code)).size).toBe(REGIMENES.length);
    expect(regimenOf("601")).toMatchObject({
      description: "General de Ley Personas Morales",
      fisica: false,
      moral: true,
    });
    expect(regimenOf("612")).toMatchObject({ fisica: true, moral: false });
    expect(regimenOf("626")).toMatchObject({
      description: "Régimen Simplificado de Confianza",
      fisica: true,
      moral: true,
    });
    expect(regimenOf("605")?.description).toBe("Sueldos y Salarios e Ingresos Asimilados a Salarios");
    expect(regimenOf("609")).toBeNull();
    for (const r of REGIMENES) expect(r.fisica || r.moral, r.code).toBe(true);
  });

  it("has each uso once; every régimen a uso names is in the catalogue", () => {
    expect(new Set(USOS.map((u) => u.code)).size).toBe(USOS.length);
    expect(usoOf("G03")?.description).toBe("Gastos en general");
    expect(usoOf("S01")?.description).toBe("Sin efectos fiscales");
    for (const u of USOS)
      for (const code of u.regimenes) expect(regimenOf(code), `${u.code} ${code}`).not.toBeNull();
  });

  it("offers each régimen the usos the SAT allows with it, never Pagos or Nómina on a sale", () => {
    const codes = (regimen: string, kind: "fisica" | "moral") => usosFor(regimen, kind).map((u) => u.code);
    expect(codes("601", "moral")).toEqual([
      "G01",
      "G02",
      "G03",
      "I01",
      "I02",
      "I03",
      "I04",
      "I05",
      "I06",
      "I07",
      "I08",
      "S01",
    ]);
    expect(codes("612", "fisica")).toContain("D01");
    expect(codes("612", "fisica")).toContain("G03");
    // Wages: personal deductions and 'sin efectos fiscales', not business expenses.
    expect(codes("605", "fisica")).toEqual([
      "D01",
      "D02",
      "D03",
      "D04",
      "D05",
      "D06",
      "D07",
      "D08",
      "D09",
      "D10",
      "S01",
    ]);
    expect(codes("616", "fisica")).toEqual(["S01"]);
    // RESICO for a company: no personal deductions.
    expect(codes("626", "moral")).not.toContain("D01");
    expect(codes("626", "fisica")).toContain("G03");
    for (const r of REGIMENES) {
      expect(codes(r.code, "fisica")).not.toContain("CP01");
      expect(codes(r.code, "fisica")).not.toContain("CN01");
    }
  });

  it("says which field is wrong, in Spanish", () => {
    expect(catalogueProblem("612", "G03", "fisica")).toBeNull();
    expect(catalogueProblem("601", "G01", "moral")).toBeNull();
    expect(catalogueProblem("601", "G03", "fisica")).toMatchObject({
      field: "regimen",
      message: expect.stringContaining("persona física"),
    });
    expect(catalogueProblem("612", "G03", "moral")).toMatchObject({
      field: "regimen",
      message: expect.stringContaining("persona moral"),
    });
    expect(catalogueProblem("605", "G03", "fisica")).toMatchObject({
      field: "uso",
      message: expect.stringContaining("D01"),
    });
    expect(catalogueProblem("601", "D01", "moral")).toMatchObject({ field: "uso" });
    expect(catalogueProblem("612", "CN01", "fisica")).toMatchObject({ field: "uso" });
    expect(catalogueProblem("999", "G03", "fisica")).toMatchObject({ field: "regimen" });
    expect(catalogueProblem("612", "Z99", "fisica")).toMatchObject({ field: "uso" });
  });
});
