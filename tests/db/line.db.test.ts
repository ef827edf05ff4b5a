import { expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { openCheckout, startCheckout } from "~/orders/checkout.server";
import { joinLine, lineDrops, lineView, writePendingLooks } from "~/orders/line.server";
import { type LineTurn, serveLine, type TurnOutcome } from "~/orders/line-serving.server";
import { arrivalPlace } from "~/orders/opening";
import { getOrder } from "~/orders/queries.server";
import { cancelCheckout, sweepExpiredHolds } from "~/orders/sweeper.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { runningPiece } from "../support/catalogue";
import { countingStatements, describeEachDatabase } from "../support/databases";

/*
 * The opening's line (decision 27): drawn by lot in its first seconds, by arrival after; pieces
 * that come back go to the first one waiting; a hold is never renewed; one address bucket holds
 * few pieces while the opening lasts.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const urls = {
  success: "https://t.example/success",
  cancel: (id: string) => `https://t.example/cancel?pedido=${id}`,
};

/** A drop whose opening began `ago` ms before `now` (lottery 10 s, its rules the defaults), with one piece. */
async function openingPiece(database: Database, stock: number, startAt: Date) {
  const piece = await runningPiece(database, {
    stock,
    maxPerOrder: 1,
    opensInMs: startAt.getTime() - Date.now(),
  });
  await database.db
    .updateTable("drops")
    .set({ start_at: toTimestamp(startAt) })
    .where("id", "=", piece.dropId)
    .execute();
  const [drop] = await lineDrops(database.db, [piece.dropId]);
  if (!drop) throw new Error("sin colección");
  const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
  return { ...piece, drop, lines };
}

/** Turns taken through the demo payment page, in the order the line gave them. */
function demoTurns(database: Database) {
  const payments = createDemoPayments(database.db);
  const given: LineTurn[] = [];
  const takeTurn = async (turn: LineTurn): Promise<TurnOutcome> => {
    given.push(turn);
    const opened = await openCheckout(database.db, payments, {
      lines: turn.lines,
      urls,
      browser: turn.browser,
      bucket: turn.bucket,
    });
    return opened.ok ? opened : { ok: false, refusal: opened };
  };
  return { payments, given, takeTurn };
}

/** Spearman's rank correlation of two orderings of the same items (ranks 0..n-1). */
function spearman(a: number[], b: number[]): number {
  const n = a.length;
  const d2 = a.reduce((sum, x, i) => sum + (x - (b[i] ?? 0)) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

describeEachDatabase("the opening's line", (harness) => {
  it("arrival order within the lottery does not predict the line's order; arrivals after it queue behind, in order", async () => {
    const database = await harness.fresh();
    const start = new Date(Date.now() - 2 * SECOND);
    const piece = await openingPiece(database, 300, start);
    const arrivals = 200;
    const ids: string[] = [];
    // 200 shoppers from 200 addresses, one every 40 ms from 3 s before the opening to 5 s after it.
    for (let i = 0; i < arrivals; i++) {
      const joined = await joinLine(database.db, {
        drop: piece.drop,
        lines: piece.lines,
        browser: `lotería-${i}`,
        bucket: `10.0.${i >> 8}.${i & 255}`,
        origin: "https://t.example",
        now: new Date(start.getTime() - 3 * SECOND + i * 40),
      });
      if (!joined.ok) throw new Error(joined.message);
      ids.push(joined.entryId);
    }
    // Three more after the lottery's 10 seconds: first come, first served, behind all of the draw.
    const late: string[] = [];
    for (let i = 0; i < 3; i++) {
      const joined = await joinLine(database.db, {
        drop: piece.drop,
        lines: piece.lines,
        browser: `tarde-${i}`,
        bucket: `10.9.0.${i}`,
        origin: "https://t.example",
        now: new Date(start.getTime() + 11 * SECOND + i),
      });
      if (joined.ok) late.push(joined.entryId);
    }
    expect(late).toHaveLength(3);

    const { given, takeTurn } = demoTurns(database);
    // A round gives turns for at most half its lease in real time; on a slow machine the places
    // left keep them for the next round, as in the shop (nudgeLine). Serve until none wait. (Once,
    // on a loaded test machine on PostgreSQL, one round served 200 of the 203.)
    let served = 0;
    for (let rounds = 0; rounds < 10; rounds++) {
      const at = new Date(start.getTime() + 11.5 * SECOND);
      const round = await serveLine(database.db, piece.dropId, takeTurn, at);
      expect(round).toMatchObject({ ran: true, told: 0 });
      served += round.served;
      if (round.waiting === 0 || round.served === 0) break;
    }
    expect(served).toBe(arrivals + 3);
    const order = given.map((t) => t.entryId);
    expect(order.slice(arrivals)).toEqual(late);
    const lineRank = ids.map((id) => order.indexOf(id));
    expect(lineRank.every((r) => r >= 0 && r < arrivals)).toBe(true);
    // Independent orders give |rho| ≈ N(0, 1/√199): 0.071. Past 0.25 (3.5 σ, 1 run in ~2,000) it is no lottery.
    const rho = spearman(
      ids.map((_, i) => i),
      lineRank,
    );
    expect(Math.abs(rho)).toBeLessThan(0.25);
    // The first ten served came from all over the window, not from its first instants.
    const firstTen = order.slice(0, 10).map((id) => ids.indexOf(id));
    expect(firstTen.filter((i) => i < 20).length).toBeLessThan(6);
  });

  it("nobody is served before the lottery ends; then the pieces go by the draw and the rest are told within the round", async () => {
    const database = await harness.fresh();
    const start = new Date();
    const piece = await openingPiece(database, 2, start);
    const entries: string[] = [];
    for (let i = 0; i < 6; i++) {
      const joined = await joinLine(database.db, {
        drop: piece.drop,
        lines: piece.lines,
        browser: `fila-${i}`,
        bucket: `10.1.0.${i}`,
        origin: "https://t.example",
        now: new Date(start.getTime() + i * 100),
      });
      if (joined.ok) entries.push(joined.entryId);
    }
    const { takeTurn } = demoTurns(database);
    expect(
      await serveLine(database.db, piece.dropId, takeTurn, new Date(start.getTime() + 5 * SECOND)),
    ).toMatchObject({
      ran: false,
    });
    expect(
      await lineView(database.db, entries[0] ?? "", "fila-0", new Date(start.getTime() + 5 * SECOND)),
    ).toEqual({
      estado: "sorteo",
      sorteoTermina: new Date(start.getTime() + 10 * SECOND).toISOString(),
    });
    const after = new Date(start.getTime() + 10 * SECOND);
    const round = await serveLine(database.db, piece.dropId, takeTurn, after);
    // Two served; two wait for the two held pieces to come back; two are told they are gone.
    expect(round).toEqual({ ran: true, served: 2, waiting: 2, told: 2 });
    const views = await Promise.all(entries.map((id, i) => lineView(database.db, id, `fila-${i}`, after)));
    expect(views.filter((v) => v?.estado === "listo")).toHaveLength(2);
    const waiting = views.filter((v) => v?.estado === "esperando");
    expect(waiting.map((v) => v?.estado === "esperando" && [v.antes, v.apartadas]).sort()).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(views.filter((v) => v?.estado === "terminado")).toEqual([
      { estado: "terminado", mensaje: "Se acabaron las piezas que pedías: Anillo Marea." },
      { estado: "terminado", mensaje: "Se acabaron las piezas que pedías: Anillo Marea." },
    ]);
    expect(await piece.stock()).toBe(0);
  });

  it("a thousand waiting each learn their place from one read of the line, and a place another process closed leaves the count within a second", async () => {
    const database = await harness.fresh();
    const start = new Date(Date.now() - 30 * SECOND);
    const piece = await openingPiece(database, 1, start);
    const now = new Date();
    const waiting = 1000;
    const rows = Array.from({ length: waiting }, (_, i) => ({
      id: `fila-${String(i).padStart(5, "0")}`,
      drop_id: piece.dropId,
      browser: `b-${i}`,
      address_bucket: `10.9.${i >> 8}.${i & 255}`,
      cart: JSON.stringify(piece.lines),
      origin: "https://t.example",
      place: arrivalPlace(new Date(start.getTime() + 11 * SECOND + i), 0),
      status: "esperando" as const,
      joined_at: toTimestamp(now),
      seen_at: toTimestamp(now),
      updated_at: toTimestamp(now),
    }));
    for (let i = 0; i < rows.length; i += 400) {
      await database.db
        .insertInto("drop_line")
        .values(rows.slice(i, i + 400))
        .execute();
    }
    // Every statement this process runs, counted.
    const counted = countingStatements(database.db);
    const views = await Promise.all(rows.map((r) => lineView(counted.db, r.id, r.browser, now)));
    expect(views.map((v) => (v?.estado === "esperando" ? v.antes : null))).toEqual(rows.map((_, i) => i));
    // One statement per look for the place itself, and the line read once, not one count per look
    // (a count per look is N² rows a second while thousands look every half second).
    expect(counted.count()).toBeLessThanOrEqual(waiting + 2);

    // Another process gives up the first place (its shopper left): this one's count follows within a second.
    const first = rows[0] as (typeof rows)[number];
    await database.db
      .updateTable("drop_line")
      .set({ status: "retirado" })
      .where("id", "=", first.id)
      .execute();
    const last = rows[waiting - 1] as (typeof rows)[number];
    await expect
      .poll(
        async () => {
          const view = await lineView(counted.db, last.id, last.browser, now);
          return view?.estado === "esperando" ? view.antes : null;
        },
        { timeout: SECOND, interval: 50 },
      )
      .toBe(waiting - 2);
  });

  it("a round gives each place its own cart, whether this process met it before, meets it now or started afresh", async () => {
    const database = await harness.fresh();
    const piece = await openingPiece(database, 10, new Date(Date.now() - 30 * SECOND));
    // Turns are recorded and refused as if another had just taken the pieces: each place keeps its place.
    const given: LineTurn[] = [];
    const takeTurn = async (turn: LineTurn): Promise<TurnOutcome> => {
      given.push(turn);
      return { ok: false, refusal: { reason: "sin_stock", message: "" } };
    };
    const asked: Omit<LineTurn, "dropId">[] = [];
    const join = async (i: number) => {
      const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 + (i % 2) }];
      const place = {
        browser: `carrito-${i}`,
        bucket: `10.5.0.${i}`,
        origin: `https://t${i}.example`,
        lines,
      };
      const joined = await joinLine(database.db, { drop: piece.drop, ...place });
      if (!joined.ok) throw new Error(joined.message);
      asked.push({ entryId: joined.entryId, ...place });
    };
    const round = async (db: Database["db"]) => {
      given.length = 0;
      await serveLine(db, piece.dropId, takeTurn);
      return given.map(({ dropId, ...turn }) => turn).sort((a, b) => a.browser.localeCompare(b.browser));
    };
    // A process restarted (or another one) meets every place anew: a handle of its own.
    const afresh = () =>
      database.db.withPlugin({ transformQuery: (a) => a.node, transformResult: async (a) => a.result });

    await join(0);
    await join(1);
    expect(await round(database.db)).toEqual(asked);
    await join(2);
    expect(await round(database.db)).toEqual(asked);
    expect(await round(afresh())).toEqual(asked);
    // One leaves (another process gave it up): no round gives it a turn any more.
    await database.db
      .updateTable("drop_line")
      .set({ status: "retirado" })
      .where("id", "=", asked[0]?.entryId ?? "")
      .execute();
    expect(await round(database.db)).toEqual(asked.slice(1));
    expect(await round(afresh())).toEqual(asked.slice(1));
  });

  it("a look still waiting for its batch at shutdown is written before the database closes", async () => {
    const database = await harness.fresh();
    const piece = await openingPiece(database, 10, new Date(Date.now() - 60 * SECOND));
    const joined = await joinLine(database.db, {
      drop: piece.drop,
      lines: piece.lines,
      browser: "mirada-final",
      bucket: "10.6.1.1",
      origin: "https://t.example",
    });
    if (!joined.ok) throw new Error(joined.message);
    const before = new Date(Date.now() - 5 * SECOND);
    await database.db
      .updateTable("drop_line")
      .set({ seen_at: toTimestamp(before) })
      .where("id", "=", joined.entryId)
      .execute();
    const now = new Date();
    expect((await lineView(database.db, joined.entryId, "mirada-final", now))?.estado).toBe("esperando");
    // What services.stop() does before closing the database: the batch is written now, not in a second.
    await writePendingLooks(database.db);
    const row = await database.db
      .selectFrom("drop_line")
      .select("seen_at")
      .where("id", "=", joined.entryId)
      .executeTakeFirstOrThrow();
    expect(new Date(row.seen_at).getTime()).toBeGreaterThanOrEqual(now.getTime());
  });

  it("a look keeps its place: written with the others within a second, or at once when the place is near being given up", async () => {
    const database = await harness.fresh();
    const piece = await openingPiece(database, 10, new Date(Date.now() - 60 * SECOND));
    const keep = async (): Promise<TurnOutcome> => ({
      ok: false,
      refusal: { reason: "sin_stock", message: "" },
    });
    const now = new Date();
    const place = async (i: number, lastLook: Date) => {
      const browser = `mirada-${i}`;
      const joined = await joinLine(database.db, {
        drop: piece.drop,
        lines: piece.lines,
        browser,
        bucket: `10.6.0.${i}`,
        origin: "https://t.example",
      });
      if (!joined.ok) throw new Error(joined.message);
      await database.db
        .updateTable("drop_line")
        .set({ seen_at: toTimestamp(lastLook) })
        .where("id", "=", joined.entryId)
        .execute();
      return { id: joined.entryId, browser };
    };
    const status = async (id: string) =>
      (
        await database.db
          .selectFrom("drop_line")
          .select("status")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).status;
    const nearEnd = await place(1, new Date(now.getTime() - 14.5 * SECOND));
    const lately = await place(2, new Date(now.getTime() - 5 * SECOND));
    expect((await lineView(database.db, nearEnd.id, nearEnd.browser, now))?.estado).toBe("esperando");
    expect((await lineView(database.db, lately.id, lately.browser, now))?.estado).toBe("esperando");
    // A round a second later (of any process): the place 14.5 s unlooked was looked at, and kept.
    await serveLine(database.db, piece.dropId, keep, new Date(now.getTime() + SECOND));
    expect(await status(nearEnd.id)).toBe("esperando");
    // The other look is written with its batch within about a second; a round 14 s after that look,
    // 19 s after the one written before it, keeps the place.
    await expect
      .poll(
        async () =>
          new Date(
            (
              await database.db
                .selectFrom("drop_line")
                .select("seen_at")
                .where("id", "=", lately.id)
                .executeTakeFirstOrThrow()
            ).seen_at,
          ).getTime(),
        { timeout: 3 * SECOND, interval: 100 },
      )
      .toBeGreaterThanOrEqual(now.getTime());
    await serveLine(database.db, piece.dropId, keep, new Date(now.getTime() + 14 * SECOND));
    expect(await status(lately.id)).toBe("esperando");
    // Nobody looks any more: 15 s after the last look both are given up.
    await serveLine(database.db, piece.dropId, keep, new Date(now.getTime() + 17 * SECOND));
    expect([await status(nearEnd.id), await status(lately.id)]).toEqual(["retirado", "retirado"]);
  });

  it("a ring by size: each size's pieces go to the places asking for it, whatever their turn; a place asking for a size that is gone is told so by its size", async () => {
    const database = await harness.fresh();
    const start = new Date();
    const piece = await runningPiece(database, {
      stock: 3,
      maxPerOrder: 1,
      opensInMs: 0,
      sizes: { "7": 1, "8": 2 },
    });
    await database.db
      .updateTable("drops")
      .set({ start_at: toTimestamp(start) })
      .where("id", "=", piece.dropId)
      .execute();
    const [drop] = await lineDrops(database.db, [piece.dropId]);
    if (!drop) throw new Error("sin colección");
    // Eight places: the first five all ask for size 7 (one piece), the last three for size 8 (two).
    const asks = ["7", "7", "7", "7", "7", "8", "8", "8"];
    const entries: { id: string; browser: string; size: string }[] = [];
    for (const [i, size] of asks.entries()) {
      const browser = `talla-${i}`;
      const joined = await joinLine(database.db, {
        drop,
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1, optionId: piece.sizes.get(size) }],
        browser,
        bucket: `10.2.0.${i}`,
        origin: "https://t.example",
        // After the lottery: places in the order of arrival.
        now: new Date(start.getTime() + 11 * SECOND + i * 100),
      });
      if (joined.ok) entries.push({ id: joined.entryId, browser, size });
    }
    expect(entries).toHaveLength(8);
    const { takeTurn } = demoTurns(database);
    const after = new Date(start.getTime() + 12 * SECOND);
    const round = await serveLine(database.db, piece.dropId, takeTurn, after);
    // One size 7 and two size 8 served in one round: the places asking for size 7 ahead of them do
    // not keep the size 8 waiting.
    expect(round).toMatchObject({ ran: true, served: 3 });
    const views = await Promise.all(entries.map((e) => lineView(database.db, e.id, e.browser, after)));
    expect(views.map((v) => v?.estado)).toEqual([
      "listo",
      "esperando",
      "terminado",
      "terminado",
      "terminado",
      "listo",
      "listo",
      "esperando",
    ]);
    // Told by the size they asked for; the first after each size's holders waits for a piece of
    // that size to come back.
    expect(views[2]).toEqual({
      estado: "terminado",
      mensaje: "Se acabaron las piezas que pedías: Anillo Marea talla 7.",
    });
    expect(views[1]).toMatchObject({ estado: "esperando", apartadas: true });
    expect(views[7]).toMatchObject({ estado: "esperando", apartadas: true });
    expect(await piece.stock()).toBe(0);
  });

  it("a renewal is refused (the same hold, the same end), and when that hold ends its piece goes to the next in line, not to a newcomer", async () => {
    const database = await harness.fresh();
    const start = new Date(Date.now() - 30 * SECOND);
    const piece = await openingPiece(database, 1, start);
    const { payments, given, takeTurn } = demoTurns(database);
    const ask = (browser: string, bucket: string, now?: Date) =>
      startCheckout(database.db, payments, piece.lines, urls, browser, undefined, {
        bucket,
        origin: "https://t.example",
        now,
      });

    // Ana gets the piece: in the opening her checkout takes a place, and the first round serves it.
    const ana = await ask("ana", "10.2.0.1");
    if (!ana.ok || !("queued" in ana)) throw new Error("sin lugar");
    await serveLine(database.db, piece.dropId, takeTurn);
    const served = await lineView(database.db, ana.queued, "ana");
    if (served?.estado !== "listo") throw new Error(`no se atendió: ${JSON.stringify(served)}`);
    const order = await database.db
      .selectFrom("orders")
      .select(["id", "expires_at"])
      .where("checkout_browser", "=", "ana")
      .executeTakeFirstOrThrow();
    // During the opening a hold lasts the opening's 10 minutes, not the drop's 30.
    const holdMs = new Date(order.expires_at).getTime() - Date.now();
    expect(holdMs).toBeGreaterThan(9 * MINUTE);
    expect(holdMs).toBeLessThanOrEqual(10 * MINUTE);

    // Luz waits for it.
    const luz = await ask("luz", "10.2.0.2");
    if (!luz.ok || !("queued" in luz)) throw new Error("sin lugar");
    await serveLine(database.db, piece.dropId, takeTurn);
    expect(await lineView(database.db, luz.queued, "luz")).toEqual({
      estado: "esperando",
      antes: 0,
      apartadas: true,
    });

    // Ana asks again for the piece she holds: sent back to her payment page, nothing renewed.
    const again = await ask("ana", "10.2.0.1");
    expect(again).toMatchObject({ ok: false, reason: "ya_apartada", url: served.url });
    const still = await getOrder(database.db, order.id);
    expect(still?.status).toBe("esperando_pago");
    expect(still?.expiresAt.getTime()).toBe(new Date(order.expires_at).getTime());
    expect(await piece.stock()).toBe(0);

    // Her hold ends; the sweep gives the piece back. A newcomer asking that instant takes a place
    // behind Luz, and the next round gives the piece to Luz.
    const later = new Date(new Date(order.expires_at).getTime() + SECOND);
    expect(await sweepExpiredHolds(database.db, payments, later)).toMatchObject({ released: 1 });
    const sol = await ask("sol", "10.2.0.3", later);
    expect(sol).toMatchObject({ ok: true, queued: expect.any(String) });
    given.length = 0;
    // (Their pages keep looking at their places meanwhile.)
    await database.db
      .updateTable("drop_line")
      .set({ seen_at: toTimestamp(later) })
      .execute();
    await serveLine(database.db, piece.dropId, takeTurn, later);
    expect(given.map((t) => t.browser)).toEqual(["luz"]);
    expect((await lineView(database.db, luz.queued, "luz", later))?.estado).toBe("listo");
    expect(await piece.stock()).toBe(0);
  });

  it("during the opening one address bucket holds at most the drop's 2 pieces, however many browsers it brings", async () => {
    const database = await harness.fresh();
    const start = new Date(Date.now() - 30 * SECOND);
    const piece = await openingPiece(database, 10, start);
    const { payments, takeTurn } = demoTurns(database);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        await startCheckout(database.db, payments, piece.lines, urls, `guion-${i}`, undefined, {
          bucket: "203.0.113.7",
          origin: "https://t.example",
        }),
      );
    }
    expect(answers.filter((a) => a.ok)).toHaveLength(2);
    for (const refused of answers.filter((a) => !a.ok)) {
      expect(refused).toMatchObject({
        reason: "limite_conexion",
        message:
          "Desde tu conexión ya se apartaron 2 piezas de esta colección en su apertura. Intenta más tarde o desde otra conexión.",
      });
    }
    await serveLine(database.db, piece.dropId, takeTurn);
    expect(await piece.stock()).toBe(8);
    // Its two held, a third browser of the same bucket is still refused; another address is not.
    const third = await startCheckout(database.db, payments, piece.lines, urls, "guion-9", undefined, {
      bucket: "203.0.113.7",
    });
    expect(third).toMatchObject({ ok: false, reason: "limite_conexion" });
    const other = await startCheckout(database.db, payments, piece.lines, urls, "otra", undefined, {
      bucket: "203.0.113.8",
      origin: "https://t.example",
    });
    expect(other).toMatchObject({ ok: true });
  });

  it("a round slower than its lease keeps it (renewed while it runs): another process never serves the same places", async () => {
    const database = await harness.fresh();
    const piece = await openingPiece(database, 1, new Date(Date.now() - 30 * SECOND));
    const { payments, given, takeTurn } = demoTurns(database);
    const ana = await startCheckout(database.db, payments, piece.lines, urls, "ana", undefined, {
      bucket: "10.4.0.1",
      origin: "https://t.example",
    });
    if (!ana.ok || !("queued" in ana)) throw new Error("sin lugar");
    // Her turn waits on a slow payment provider, past the round's lease (1 s here, 20 s live; shorter lost its renewals on a busy machine).
    let entered: () => void = () => {};
    const inTurn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let answer: () => void = () => {};
    const providerAnswers = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const slowTurn = async (turn: LineTurn) => {
      entered();
      await providerAnswers;
      return takeTurn(turn);
    };
    const leaseMs = 1_000;
    const first = serveLine(database.db, piece.dropId, slowTurn, new Date(), { leaseMs });
    await inTurn;
    await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs));
    // Another process's round meanwhile finds the lease still held, and serves nobody.
    expect(await serveLine(database.db, piece.dropId, takeTurn, new Date(), { leaseMs })).toMatchObject({
      ran: false,
    });
    answer();
    expect(await first).toMatchObject({ ran: true, served: 1 });
    expect(given.map((t) => t.browser)).toEqual(["ana"]);
    const orders = await database.db
      .selectFrom("orders")
      .select("status")
      .where("checkout_browser", "=", "ana")
      .execute();
    expect(orders).toEqual([{ status: "esperando_pago" }]);
    // Given back at the round's end: the next round runs.
    expect(await serveLine(database.db, piece.dropId, takeTurn, new Date(), { leaseMs })).toMatchObject({
      ran: true,
    });
  });

  it("a payment page whose hold another checkout of the browser closed while it was made is closed, never linked", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 2 });
    const demo = createDemoPayments(database.db);
    let closedId = "";
    // The same browser's other tab opens a checkout while this page is being made: it closes this one.
    const payments = {
      ...demo,
      async createSession(...args: Parameters<typeof demo.createSession>) {
        closedId = args[0].id;
        await cancelCheckout(database.db, demo, closedId);
        return demo.createSession(...args);
      },
    };
    const result = await openCheckout(database.db, payments, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      urls,
      browser: "ana",
    });
    expect(result).toEqual({
      ok: false,
      reason: "pago_no_disponible",
      message: "Abriste otro pago mientras preparábamos este: sigue en el más reciente.",
    });
    const order = await getOrder(database.db, closedId);
    expect(order).toMatchObject({ status: "expirado", paymentSessionId: null });
    expect(await piece.stock()).toBe(2);
  });

  it("outside the opening nobody waits: a checkout holds at once, as always", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 2 });
    const payments = createDemoPayments(database.db);
    const result = await startCheckout(
      database.db,
      payments,
      [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      urls,
      "ana",
      undefined,
      { bucket: "10.3.0.1" },
    );
    expect(result).toMatchObject({ ok: true, url: expect.any(String) });
    expect(await piece.stock()).toBe(1);
  });
});
