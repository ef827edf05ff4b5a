import { describe, expect, it } from "vitest";
import { parseInvoiceMonth } from "~/invoices/month-query";
import { dayKey, monthKey, monthRange } from "./calendar";
import { pesos } from "./csv";
import { parseReportQuery, reportSearch } from "./query";
import { sellThroughText, soldOutText } from "./report";

describe("the report's calendar (Mexico City)", () => {
  it("puts 31 Oct 23:30 in Mexico City in October, though it is November in UTC", () => {
    const late = new Date("2026-11-01T05:30:00Z");
    expect(dayKey(late)).toBe("2026-10-31");
    expect(monthKey(late)).toBe("2026-10");
  });
  it("a month runs from its first midnight to the next month's, in Mexico City", () => {
    expect(monthRange("2026-10")).toEqual({
      start: new Date("2026-10-01T06:00:00Z"),
      end: new Date("2026-11-01T06:00:00Z"),
    });
    expect(monthRange("2026-12").end).toEqual(new Date("2027-01-01T06:00:00Z"));
  });
});

describe("report figures as text", () => {
  it("pesos with two decimals from centavos", () => {
    expect(pesos(0)).toBe("0.00");
    expect(pesos(5)).toBe("0.05");
    expect(pesos(1_250_000)).toBe("12500.00");
    expect(pesos(99_999_999)).toBe("999999.99");
  });
  it("sell-through to one decimal, and a dash when nothing was offered", () => {
    expect(sellThroughText(4, 7)).toBe("57.1 %");
    expect(sellThroughText(3, 3)).toBe("100 %");
    expect(sellThroughText(0, 0)).toBe("—");
  });
  it("time to sell out in days, hours and minutes; 'Sin agotar' when pieces are left", () => {
    expect(soldOutText(null)).toBe("Sin agotar");
    expect(soldOutText(30_000)).toBe("menos de 1 min");
    expect(soldOutText((4 * 60 + 30) * 60_000)).toBe("4 h 30 min");
    expect(soldOutText((26 * 60 + 5) * 60_000)).toBe("1 d 2 h 5 min");
    expect(soldOutText(2 * 86_400_000)).toBe("2 d");
  });
});

describe("the report's address", () => {
  it("reads a drop or a month, never both, and refuses a bad month in Spanish", () => {
    expect(parseReportQuery(new URLSearchParams(""))).toEqual({ ok: true, scope: { kind: "all" } });
    expect(parseReportQuery(new URLSearchParams("mes=2026-10"))).toEqual({
      ok: true,
      scope: { kind: "month", month: "2026-10" },
    });
    expect(parseReportQuery(new URLSearchParams("coleccion=abc123"))).toEqual({
      ok: true,
      scope: { kind: "drop", dropId: "abc123" },
    });
    // A month with no next month to end it (year 10000) would fail the report: refused like a bad one.
    for (const far of ["9999-12", "0000-01", "2100-01"]) {
      expect(parseReportQuery(new URLSearchParams(`mes=${far}`)), far).toMatchObject({ ok: false });
      expect(parseInvoiceMonth(new URLSearchParams(`mes=${far}`)), far).toMatchObject({
        ok: false,
        message: "Mes no válido: usa el formato AAAA-MM (por ejemplo 2026-10).",
      });
    }
    expect(parseInvoiceMonth(new URLSearchParams("mes=2099-12"))).toEqual({ ok: true, month: "2099-12" });
    expect(monthRange("2099-12").end).toEqual(new Date("2100-01-01T06:00:00Z"));
    expect(parseReportQuery(new URLSearchParams("mes=2026-13"))).toEqual({
      ok: false,
      message: "Mes no válido: usa el formato AAAA-MM (por ejemplo 2026-10).",
    });
    expect(parseReportQuery(new URLSearchParams("coleccion=%3Cscript%3E")).ok).toBe(false);
    expect(parseReportQuery(new URLSearchParams("mes=2026-10&coleccion=abc")).ok).toBe(false);
    expect(reportSearch({ kind: "month", month: "2026-10" })).toBe("?mes=2026-10");
  });
});
