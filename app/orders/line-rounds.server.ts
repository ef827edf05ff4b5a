import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { type LineTurn, type RoundResult, serveLine, type TurnOutcome } from "./line-serving.server";

/*
 * When a drop's line is served: whenever someone looks at their place (every half second while
 * the page waits), joins it, or pieces come back, at most one round at a time per drop in this
 * process and no more often than ROUND_EVERY_MS. Nobody waiting, nobody looking: no rounds and no
 * queries. Across processes the lease in `serveLine` keeps one round at a time.
 */
const ROUND_EVERY_MS = 150;

const rounds = new WeakMap<Db, Map<string, { running: Promise<RoundResult> | null; lastAt: number }>>();

/** Runs a round of the drop's line unless one ran a moment ago; resolves when the round this call waits for ends. */
export function nudgeLine(
  db: Db,
  dropId: string,
  takeTurn: (turn: LineTurn) => Promise<TurnOutcome>,
): Promise<RoundResult | null> {
  let byDrop = rounds.get(db);
  if (!byDrop) {
    byDrop = new Map();
    rounds.set(db, byDrop);
  }
  const state = byDrop.get(dropId) ?? { running: null, lastAt: 0 };
  byDrop.set(dropId, state);
  if (state.running) return state.running;
  if (Date.now() - state.lastAt < ROUND_EVERY_MS) return Promise.resolve(null);
  state.lastAt = Date.now();
  state.running = serveLine(db, dropId, takeTurn)
    .catch((error: unknown) => {
      log.error({ dropId, err: error }, "No se pudo atender la fila de la colección");
      return null;
    })
    .finally(() => {
      state.running = null;
      state.lastAt = Date.now();
    }) as Promise<RoundResult>;
  return state.running;
}
