import { describe, expect, it } from "vitest";
import { mailLogHref, parseMailLogQuery } from "./mail-log";
import { SIGN_UP_CSV_HEADER, signUpsCsv } from "./waitlist-csv";

describe("the 'Avísame' spreadsheet", () => {
  it("has a byte-order mark, Spanish headers, Mexico City dates, quoted cells and no formulas", () => {
    const csv = signUpsCsv([
      {
        email: '=hyperlink("http://x")@example.com',
        status: "confirmada",
        // 2026-12-01 06:30 UTC is 00:30 in Mexico City, still the 1st.
        createdAt: new Date("2026-12-01T06:30:00Z"),
        confirmedAt: new Date("2026-12-01T05:59:00Z"),
        unsubscribedAt: null,
        notifiedAt: null,
      },
      {
        email: "-2+3@example.com",
        status: "baja",
        createdAt: new Date("2026-11-20T18:00:00Z"),
        confirmedAt: null,
        unsubscribedAt: new Date("2026-11-21T18:00:00Z"),
        notifiedAt: null,
      },
    ]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual([
      SIGN_UP_CSV_HEADER.map((h) => `"${h}"`).join(","),
      `"'=hyperlink(""http://x"")@example.com","Confirmada","2026-12-01 00:30","2026-11-30 23:59","",""`,
      `"'-2+3@example.com","Dada de baja","2026-11-20 12:00","","2026-11-21 12:00",""`,
      "",
    ]);
    expect(SIGN_UP_CSV_HEADER).toEqual([
      "Correo",
      "Estado",
      "Registro",
      "Confirmación",
      "Baja",
      "Aviso de apertura",
    ]);
  });
});

describe("the mail log's address", () => {
  it("reads a filter and a page, and refuses anything else in Spanish", () => {
    const q = (s: string) => parseMailLogQuery(new URLSearchParams(s));
    expect(q("vista=correos")).toEqual({ ok: true, state: null, scope: null, page: 1 });
    expect(q("estado=todos&tipo=todos")).toEqual({ ok: true, state: null, scope: null, page: 1 });
    expect(q("estado=fallido&pagina=3")).toEqual({ ok: true, state: "fallido", scope: null, page: 3 });
    expect(q("estado=fallido&tipo=pedidos")).toEqual({
      ok: true,
      state: "fallido",
      scope: "pedidos",
      page: 1,
    });
    expect(q("estado=FALLIDO")).toMatchObject({ ok: false, message: expect.stringMatching(/^Estado: /) });
    expect(q("tipo=avisame")).toEqual({ ok: false, message: "Tipo: elige Todos o Pedidos." });
    for (const page of ["0", "-1", "abc", "1e3", "100001", ""]) {
      expect(q(`pagina=${page}`), page).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^Página: /),
      });
    }
    expect(mailLogHref("fallido", 2)).toBe("/admin/campains/correos?estado=fallido&pagina=2");
    expect(mailLogHref(null)).toBe("/admin/campains/correos");
    expect(mailLogHref("fallido", 1, "pedidos")).toBe("/admin/campains/correos?estado=fallido&tipo=pedidos");
  });
});
