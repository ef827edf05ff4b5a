import { describe, expect, it } from "vitest";
import type { ReturnStatus } from "~/db/schema";
import { canMoveReturn, RETURN_MOVES, returnMovableFrom } from "./return-status";

const ALL: ReturnStatus[] = ["solicitada", "aceptada", "rechazada", "recibida", "reembolsada"];

describe("a return's moves", () => {
  it("are exactly the table's: accept or decline a request, receive an accepted one, then its refund", () => {
    const allowed = ALL.flatMap((status) =>
      (Object.keys(RETURN_MOVES) as (keyof typeof RETURN_MOVES)[])
        .filter((move) => canMoveReturn(status, move))
        .map((move) => `${status} -${move}-> ${RETURN_MOVES[move].to}`),
    );
    expect(allowed).toEqual([
      "solicitada -accept-> aceptada",
      "solicitada -decline-> rechazada",
      "aceptada -receive-> recibida",
      "recibida -refunded-> reembolsada",
    ]);
  });

  it("never leave a declined or refunded return", () => {
    for (const status of ["rechazada", "reembolsada"] as const) {
      for (const move of Object.keys(RETURN_MOVES) as (keyof typeof RETURN_MOVES)[]) {
        expect(canMoveReturn(status, move)).toBe(false);
      }
    }
    expect(returnMovableFrom("receive")).toEqual(["aceptada"]);
  });
});
