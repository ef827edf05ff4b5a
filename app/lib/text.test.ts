import { describe, expect, it } from "vitest";
import { CONTROL_CHARS_MESSAGE, hasControlChars, safeText } from "./text";

const controls = [
  ["NUL", "\u0000"],
  ["bell", "\u0007"],
  ["backspace", "\u0008"],
  ["vertical tab", "\u000b"],
  ["escape", "\u001b"],
  ["unit separator", "\u001f"],
  ["DEL", "\u007f"],
  ["C1 next line", "\u0085"],
] as const;

describe("safeText", () => {
  it.each(controls)("refuses a %s, in one-line and multi-line text", (_, c) => {
    // At either end a whitespace control (vertical tab) is trimmed away first.
    const places = c.trim() === "" ? [`Ani${c}llo`] : [`${c}Anillo`, `Ani${c}llo`, `Anillo${c}`];
    for (const value of places) {
      for (const multiline of [false, true]) {
        const result = safeText({ multiline }).safeParse(value);
        expect(
          result.error?.issues.map((i) => i.message),
          JSON.stringify(value),
        ).toEqual([CONTROL_CHARS_MESSAGE]);
      }
    }
  });

  it("keeps tabs and line breaks (a textarea's CRLF too) only in multi-line text", () => {
    const value = "Uno\r\n\tDos\nTres";
    expect(safeText({ multiline: true }).parse(value)).toBe(value);
    expect(safeText().safeParse(value).success).toBe(false);
    expect(hasControlChars("a\tb")).toBe(true);
    expect(hasControlChars("a\tb", { multiline: true })).toBe(false);
  });

  it("trims first, so a stray tab or line break at either end is not a refusal", () => {
    expect(safeText().parse("\t Mareas \r\n")).toBe("Mareas");
  });

  it("names the field when it has a label, and chains with length rules", () => {
    const name = safeText({ label: "Nombre" }).min(1, "Escribe el nombre.").max(5, "Nombre: máximo 5.");
    expect(name.safeParse("a\u0000").error?.issues[0]?.message).toBe(
      "Nombre: contiene caracteres no permitidos.",
    );
    expect(name.safeParse("   ").error?.issues[0]?.message).toBe("Escribe el nombre.");
    expect(name.safeParse("abcdef").error?.issues[0]?.message).toBe("Nombre: máximo 5.");
    expect(safeText({ error: "Falta." }).safeParse(undefined).error?.issues[0]?.message).toBe("Falta.");
  });

  it("keeps accents, ñ, emoji and other printable Unicode", () => {
    for (const value of ["Colección Ñandú ✨", "José María", "Calle 5 #12-B", "Œuvre — “oro”", "日本"]) {
      expect(safeText().parse(value)).toBe(value);
    }
  });
});
