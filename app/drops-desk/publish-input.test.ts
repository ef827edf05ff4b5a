import { describe, expect, it } from "vitest";
import { readPublishForm } from "./publish-input";

/** The 'Publicar' form as the edit page submits it. */
function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("readPublishForm: 'Visible desde'", () => {
  it("reads a date and time in Mexico City, or at once", () => {
    expect(readPublishForm(form({ cuando: "ahora" }))).toEqual({ ok: true, visibleFrom: null });
    expect(
      readPublishForm(form({ cuando: "desde", visibleDate: "2026-12-05", visibleTime: "10:00:30" })),
    ).toEqual({ ok: true, visibleFrom: new Date("2026-12-05T16:00:30.000Z") });
    expect(readPublishForm(form({ cuando: "desde", visibleDate: "2026-12-05" }))).toEqual({
      ok: true,
      visibleFrom: new Date("2026-12-05T06:00:00.000Z"),
    });
  });

  it("refuses a year the shop's dates never reach, in Spanish, instead of publishing at once", () => {
    // "0226" for 2026 read as the year 226 would be long past: the drop would be public at once.
    for (const visibleDate of ["0226-12-05", "1999-12-31", "2101-01-01"]) {
      expect(
        readPublishForm(form({ cuando: "desde", visibleDate, visibleTime: "10:00" })),
        visibleDate,
      ).toEqual({
        ok: false,
        message: "La fecha de 'Visible desde' no es válida: escribe un año de 2000 a 2100.",
      });
    }
  });

  it("refuses an impossible date or time, and a missing date or choice", () => {
    const invalid = { ok: false, message: "La fecha u hora de 'Visible desde' no es válida." };
    expect(readPublishForm(form({ cuando: "desde", visibleDate: "2026-02-30" }))).toEqual(invalid);
    expect(
      readPublishForm(form({ cuando: "desde", visibleDate: "2026-12-05", visibleTime: "24:00" })),
    ).toEqual(invalid);
    expect(readPublishForm(form({ cuando: "desde", visibleDate: " " }))).toEqual({
      ok: false,
      message: "Escribe la fecha de 'Visible desde'.",
    });
    expect(readPublishForm(form({}))).toEqual({
      ok: false,
      message: "Elige publicar ahora o desde una fecha.",
    });
  });
});
