import { describe, expect, it } from "vitest";
import type { ReturnStatus } from "~/db/schema";
import { canMoveReturn, piecesNotArrived, RETURN_MOVES, returnMovableFrom } from "./return-status";

const ALL: ReturnStatus[] = ["solicitada", "aceptada", "rechazada", "recibida", "reembolsada", "cerrada"];

describe("a return's moves", () => {
  it("are exactly the table's: accept or decline a request, receive or close an accepted one, then its refund", () => {
    const allowed = ALL.flatMap((status) =>
      (Object.keys(RETURN_MOVES) as (keyof typeof RETURN_MOVES)[])
        .filter((move) => canMoveReturn(status, move))
        .map((move) => `${status} -${move}-> ${RETURN_MOVES[move].to}`),
    );
    expect(allowed).toEqual([
      "solicitada -accept-> aceptada",
      "solicitada -decline-> rechazada",
      "aceptada -receive-> recibida",
      "aceptada -close-> cerrada",
      "recibida -refunded-> reembolsada",
    ]);
  });

  it("never leave a declined, closed or refunded return", () => {
    for (const status of ["rechazada", "cerrada", "reembolsada"] as const) {
      for (const move of Object.keys(RETURN_MOVES) as (keyof typeof RETURN_MOVES)[]) {
        expect(canMoveReturn(status, move)).toBe(false);
      }
    }
    expect(returnMovableFrom("receive")).toEqual(["aceptada"]);
    expect(returnMovableFrom("close")).toEqual(["aceptada"]);
  });
});

describe("pieces that did not arrive", () => {
  it("names each line's missing pieces once a return is received with fewer; nothing otherwise", () => {
    const lines = [
      { name: "Arete Luna", asked: 1, received: 0 },
      { name: "Anillo Sol talla 7", asked: 2, received: 1 },
      { name: "Collar Mar", asked: 1, received: 1 },
    ];
    expect(piecesNotArrived(lines, "correo")).toBe(
      "No nos llegaron todas las piezas: Arete Luna × 1, Anillo Sol talla 7 × 1. No las incluimos en tu reembolso; si las enviaste, respóndenos con la guía de tu envío y lo revisamos.",
    );
    // On her page she cannot reply: she writes, or asks again while her window lasts.
    expect(piecesNotArrived(lines, "pagina")).toContain("escríbenos con la guía de tu envío");
    // One piece missing: said of one.
    expect(piecesNotArrived([{ name: "Anillo Sol talla 7", asked: 2, received: 1 }], "correo")).toBe(
      "No nos llegaron todas las piezas: Anillo Sol talla 7 × 1. No la incluimos en tu reembolso; si la enviaste, respóndenos con la guía de tu envío y lo revisamos.",
    );
    expect(piecesNotArrived([{ name: "Collar Mar", asked: 1, received: 1 }], "correo")).toBeNull();
    // Not received yet: nothing is missing.
    expect(piecesNotArrived([{ name: "Collar Mar", asked: 2, received: null }], "pagina")).toBeNull();
  });
});
