import { expect, it } from "vitest";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { describeEachDatabase } from "../support/databases";

/*
 * Transactions that read and then write from what they read take turns per key (the next edition
 * number, a person's count in a drop, who is told a piece came back).
 */

describeEachDatabase("taking turns", (harness) => {
  it("a second transaction on the same key waits until the first has committed", async () => {
    const database = await harness.fresh();
    const events: string[] = [];
    let finishFirst = () => {};
    const firstMayFinish = new Promise<void>((resolve) => {
      finishFirst = resolve;
    });
    let firstHasTurn = () => {};
    const firstTookTurn = new Promise<void>((resolve) => {
      firstHasTurn = resolve;
    });
    const first = database.db.transaction().execute(async (trx) => {
      await takeTurnsOn(trx, "prueba:una-pieza");
      events.push("primera empieza");
      firstHasTurn();
      await firstMayFinish;
      events.push("primera termina");
    });
    await firstTookTurn;
    const second = database.db.transaction().execute(async (trx) => {
      await takeTurnsOn(trx, "prueba:una-pieza");
      events.push("segunda empieza");
    });
    // The second has had time to start if it were going to; it must still be waiting.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(events).toEqual(["primera empieza"]);
    finishFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(["primera empieza", "primera termina", "segunda empieza"]);
  });

  it("outside a transaction it takes no turn on PostgreSQL, so it is refused there", async () => {
    const database = await harness.fresh();
    const outside = takeTurnsOn(database.db, "prueba:sin-transaccion");
    if (harness.dialect === "postgres") {
      await expect(outside).rejects.toThrow(/outside a transaction/);
    } else {
      // SQLite: every transaction of the shop holds the write lock from its start; nothing to take.
      await expect(outside).resolves.toBeUndefined();
    }
  });
});
