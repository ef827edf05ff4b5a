import { describe, expect, it } from "vitest";
import type { OrderStatus } from "~/db/schema";
import {
  canMove,
  DESK_TABS,
  deskActions,
  isDeskTab,
  isDeskView,
  movableFrom,
  ORDER_MOVES,
  type OrderMove,
  STATUS_LABELS,
} from "./status";

// Written out by hand from SPEC §4 and DECISIONS, not derived from ORDER_MOVES: the table is what is tested.
const ALLOWED: Record<OrderMove, OrderStatus[]> = {
  pay: ["esperando_pago", "expirado"],
  release: ["esperando_pago"],
  ship: ["pendiente"],
  correctTracking: ["enviado"],
  correctBuyer: ["pendiente"],
  archive: ["enviado"],
  unarchive: ["archivado"],
  cancelByShop: ["pendiente"],
  refundRefused: ["cancelado"],
  deleteFromHistory: ["enviado", "archivado"],
  cancelOverLimit: ["pendiente"],
  cancelSoldOut: ["pendiente"],
  cancelMismatch: ["esperando_pago", "expirado"],
  cancelVoucherOverLimit: ["esperando_pago", "expirado"],
};

const STATUSES: OrderStatus[] = [
  "esperando_pago",
  "pendiente",
  "enviado",
  "archivado",
  "expirado",
  "cancelado",
];
const MOVES = Object.keys(ALLOWED) as OrderMove[];

describe("the order's allowed moves", () => {
  it("knows every move", () => {
    expect(Object.keys(ORDER_MOVES).sort()).toEqual([...MOVES].sort());
  });

  const pairs = MOVES.flatMap((move) =>
    STATUSES.map((status) => ({ move, status, allowed: ALLOWED[move].includes(status) })),
  );
  it.each(pairs)("$move from $status: allowed $allowed", ({ move, status, allowed }) => {
    expect(canMove(status, move)).toBe(allowed);
  });

  it("each move ends where the spec says", () => {
    expect(ORDER_MOVES.pay.to).toBe("pendiente");
    expect(ORDER_MOVES.release.to).toBe("expirado");
    expect(ORDER_MOVES.ship.to).toBe("enviado");
    expect(ORDER_MOVES.correctTracking.to).toBe("enviado");
    expect(ORDER_MOVES.correctBuyer.to).toBe("pendiente");
    expect(ORDER_MOVES.archive.to).toBe("archivado");
    expect(ORDER_MOVES.unarchive.to).toBe("enviado");
    expect(ORDER_MOVES.cancelByShop.to).toBe("cancelado");
    expect(ORDER_MOVES.cancelVoucherOverLimit.to).toBe("cancelado");
    expect(ORDER_MOVES.refundRefused.to).toBe("pendiente");
    expect(ORDER_MOVES.deleteFromHistory.to).toBeNull();
    expect(ORDER_MOVES.cancelOverLimit.to).toBe("cancelado");
    expect(ORDER_MOVES.cancelSoldOut.to).toBe("cancelado");
    expect(ORDER_MOVES.cancelMismatch.to).toBe("cancelado");
  });

  it("a paid order over the per-person limit is cancelled only while it waits to be shipped", () => {
    expect(STATUSES.filter((s) => canMove(s, "cancelOverLimit"))).toEqual(["pendiente"]);
  });

  it("a cancelled order is never paid again, shipped, taken off or cancelled twice: it goes back only when the provider refused the shop's refund", () => {
    expect(MOVES.filter((m) => canMove("cancelado", m))).toEqual(["refundRefused"]);
    expect(deskActions("cancelado")).toEqual([]);
  });

  it("the conditional update of a move starts from exactly its allowed statuses", () => {
    for (const move of MOVES) expect([...movableFrom(move)].sort(), move).toEqual([...ALLOWED[move]].sort());
  });

  it("a shipped or archived order can never go back to pending; an archived one goes back to shipped only by 'Desarchivar'", () => {
    const backwards = MOVES.filter((m) => ORDER_MOVES[m].to === "pendiente");
    for (const move of backwards) {
      expect(canMove("enviado", move)).toBe(false);
      expect(canMove("archivado", move)).toBe(false);
    }
    expect(MOVES.filter((m) => ORDER_MOVES[m].to === "enviado" && canMove("archivado", m))).toEqual([
      "unarchive",
    ]);
  });

  it("movableFrom hands out a copy: a caller cannot change the rules", () => {
    const from = movableFrom("ship");
    from.push("archivado");
    expect(canMove("archivado", "ship")).toBe(false);
  });
});

describe("the orders desk's buttons per status", () => {
  it("pendiente offers 'Atender pedido' and 'Eliminar pedido'", () => {
    expect(deskActions("pendiente")).toEqual(["atender", "eliminar"]);
  });

  it("enviado offers 'Archivar' and 'Borrar del historial'", () => {
    expect(deskActions("enviado")).toEqual(["archivar", "borrar"]);
  });

  it("archivado offers 'Borrar del historial' and 'Desarchivar'", () => {
    expect(deskActions("archivado")).toEqual(["borrar", "desarchivar"]);
  });

  it("unpaid orders offer nothing", () => {
    expect(deskActions("esperando_pago")).toEqual([]);
    expect(deskActions("expirado")).toEqual([]);
  });

  it("every button offered is a move the rules allow from that status", () => {
    const moveOf = {
      atender: "ship",
      eliminar: "cancelByShop",
      archivar: "archive",
      borrar: "deleteFromHistory",
      desarchivar: "unarchive",
    } as const;
    for (const status of STATUSES) {
      for (const action of deskActions(status)) expect(canMove(status, moveOf[action]), action).toBe(true);
    }
  });

  it("every status has a Spanish label", () => {
    expect(STATUS_LABELS).toEqual({
      esperando_pago: "Esperando pago",
      pendiente: "Pendiente",
      enviado: "Enviado",
      archivado: "Archivado",
      expirado: "Pago vencido",
      cancelado: "Cancelado",
    });
  });
});

describe("the desk's tabs", () => {
  it("are the three paid statuses, in the spec's order", () => {
    expect(DESK_TABS).toEqual(["pendiente", "enviado", "archivado"]);
  });

  it("isDeskTab accepts only those three, exactly spelled", () => {
    for (const tab of ["pendiente", "enviado", "archivado"]) expect(isDeskTab(tab), tab).toBe(true);
    for (const other of [
      "esperando_pago",
      "expirado",
      "cancelado",
      "",
      null,
      undefined,
      "Pendiente",
      "ENVIADO",
      " pendiente",
      "archivada",
      "pendiente,enviado",
    ]) {
      expect(isDeskTab(other), String(other)).toBe(false);
    }
  });
});

describe("the desk's views", () => {
  it("are its tabs and the cancelled orders", () => {
    for (const view of ["pendiente", "enviado", "archivado", "cancelado"])
      expect(isDeskView(view), view).toBe(true);
    for (const other of ["esperando_pago", "expirado", "Cancelado", "", null]) {
      expect(isDeskView(other), String(other)).toBe(false);
    }
  });
});
