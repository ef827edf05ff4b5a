import { describe, expect, it } from "vitest";
import { readOwnerMessage, readReturnForm } from "./return-input";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the buyer's return form", () => {
  it("reads the pieces chosen, the reason and her words", () => {
    expect(
      readReturnForm(
        form({ "pieza-0": "1", "pieza-1": "0", motivo: "talla", comentario: " Me quedó grande " }),
      ),
    ).toEqual({
      ok: true,
      value: { lines: [{ position: 0, quantity: 1 }], reason: "talla", comment: "Me quedó grande" },
    });
  });

  it("asks no reason: none chosen is 'Prefiero no decirlo' (LFPC art. 56)", () => {
    expect(readReturnForm(form({ "pieza-2": "1" }))).toEqual({
      ok: true,
      value: { lines: [{ position: 2, quantity: 1 }], reason: "sin_motivo", comment: "" },
    });
  });

  it("says in Spanish, by field, what is missing or wrong", () => {
    const answer = readReturnForm(form({ "pieza-0": "0", motivo: "nada", comentario: "x\u0000" }));
    expect(answer).toEqual({
      ok: false,
      errors: {
        piezas: "Elige al menos una pieza para devolver.",
        motivo: "Elige uno de los motivos de la lista.",
        comentario: "Comentario: contiene caracteres no permitidos.",
      },
    });
    expect(readReturnForm(form({ "pieza-0": "-1", motivo: "otro" }))).toEqual({
      ok: false,
      errors: { piezas: "Elige cuántas piezas devuelves de cada una." },
    });
    expect(readReturnForm(null)).toMatchObject({ ok: false });
  });
});

describe("the owner's answer", () => {
  it("needs a message: where to send the pieces, or why not", () => {
    expect(readOwnerMessage(form({ mensaje: "" }), "decline")).toEqual({
      ok: false,
      error: "Escribe a la clienta por qué no aceptas la devolución.",
    });
    expect(readOwnerMessage(form({ mensaje: "  Envía a Calle 1  " }), "accept")).toEqual({
      ok: true,
      message: "Envía a Calle 1",
    });
  });
});
