import { sql } from "kysely";
import { heldPieces } from "~/catalogue/held-pieces.server";
import { heldPerValue } from "~/catalogue/options.server";
import type { Db } from "~/db/database.server";
import { MAX_STOCK } from "~/db/taxonomy";
import type { ProductInput } from "./drop-input";
import { insertOptionValues } from "./form-products.server";
import { type OptionName, optionWords } from "./option-input";
import { refuse } from "./types";

/*
 * The edit form's stock, applied as changes from what the form loaded (a product's `stockLoaded`,
 * and each size's): pieces sold or held while the form was open are never lost or sold twice.
 * Products in id order, each product's row before its sizes' (decision 34), as every checkout
 * takes them, so a save and a checkout sharing pieces never wait on each other (PostgreSQL would
 * end one with a deadlock).
 */

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const sum = (list: readonly number[]) => list.reduce((total, n) => total + n, 0);
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Pieces the owner added to a product (or one of its sizes): what 'Avísame si vuelve' tells about. */
export interface StockAdded {
  productId: string;
  optionId: string | null;
  count: number;
}

/**
 * Applies each kept product's stock (and its sizes') in one go, inside the save's transaction.
 * Returns what went up: a product's own stock, or each kept size's (a size added is new to
 * everyone; nobody waits for it).
 */
export async function applyStockChanges(trx: Db, kept: ProductInput[], stamp: string): Promise<StockAdded[]> {
  const added: StockAdded[] = [];
  const stored =
    kept.length === 0
      ? []
      : await trx
          .selectFrom("products")
          .select(["id", "option_name"])
          .where(
            "id",
            "in",
            kept.map((p) => p.id),
          )
          .execute();
  const optionOf = new Map(stored.map((r) => [r.id, r.option_name]));
  for (const p of [...kept].sort(byId)) {
    const storedOption = optionOf.get(p.id) ?? null;
    if (storedOption === null && p.option === null) {
      const delta = p.stock - (p.stockLoaded ?? p.stock);
      await moveStock(trx, p, delta, stamp);
      if (delta > 0) added.push({ productId: p.id, optionId: null, count: delta });
    } else {
      const raised = await applyOptionChanges(trx, p, storedOption, stamp);
      added.push(...raised.map((v) => ({ productId: p.id, optionId: v.id, count: v.delta })));
    }
  }
  return added;
}

/**
 * Moves a product's own stock by `delta`. A raise may not take it past MAX_STOCK (a forged
 * `stockLoaded` could otherwise grow it save after save until the column overflows); a cut may not
 * take it below zero (what the form showed was sold meanwhile).
 */
async function moveStock(trx: Db, p: ProductInput, delta: number, stamp: string) {
  const changed = await trx
    .updateTable("products")
    .set({ stock: sql`stock + ${delta}`, updated_at: stamp })
    .where("id", "=", p.id)
    .where(sql<boolean>`stock + ${delta} >= 0`)
    .where(sql<boolean>`(${delta} <= 0 or stock + ${delta} <= ${MAX_STOCK})`)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) return;
  const left = await trx.selectFrom("products").select("stock").where("id", "=", p.id).executeTakeFirst();
  refuseStock(p.name, left?.stock ?? 0, delta);
}

function refuseStock(what: string, left: number, delta: number): never {
  if (delta > 0 && left + delta > MAX_STOCK) {
    refuse("stock_maximo", `El stock de ${what} puede ser de hasta ${MAX_STOCK} piezas (ahora hay ${left}).`);
  }
  refuse(
    "stock_cambio",
    `El stock de ${what} cambió mientras editabas (ahora hay ${left}): recarga la página y vuelve a escribirlo.`,
  );
}

const HELD =
  "tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.";

/**
 * A product that has sizes, or gets or loses them. Its row is claimed first (a hold takes it
 * first too), so what is held and each size's stock are read as they stand and cannot move until
 * the save commits. Each size's stock moves by its own difference and the product's sum by theirs;
 * a size added brings its stock, one removed takes its stock off (refused while a checkout holds
 * some of it); a size renamed keeps its id (an order keeps the size as it was chosen). Taking sizes
 * on or off is refused while any piece is held: those checkouts name a size or none.
 */
async function applyOptionChanges(
  trx: Db,
  p: ProductInput,
  storedOption: OptionName | null,
  stamp: string,
): Promise<{ id: string; delta: number }[]> {
  await trx.updateTable("products").set({ updated_at: stamp }).where("id", "=", p.id).execute();
  const stored = await trx
    .selectFrom("product_options")
    .select(["id", "value", "stock", "position"])
    .where("product_id", "=", p.id)
    .execute();
  if ((storedOption === null) !== (p.option === null)) {
    const held = (await heldPieces(trx, [p.id])).get(p.id) ?? 0;
    if (held > 0) {
      refuse(
        "producto_apartado",
        p.option
          ? `No se pueden agregar ${optionWords(p.option.name).plural} a ${p.name}: ${HELD}`
          : `No se pueden quitar ${storedOption === "Largo" ? "los largos" : "las tallas"} de ${p.name}: ${HELD}`,
      );
    }
  }
  if (!p.option) {
    // Its sizes go; the stock typed stands, as a change from the sum the form showed.
    await trx.deleteFrom("product_options").where("product_id", "=", p.id).execute();
    await moveStock(trx, p, p.stock - (p.stockLoaded ?? p.stock), stamp);
    return [];
  }
  const words = optionWords(p.option.name);
  const { changes, removed, added } = valueChanges(p, p.option, stored);
  const heldOf = await heldPerValue(
    trx,
    removed.map((v) => v.id),
  );
  const busy = removed.find((v) => (heldOf.get(v.id) ?? 0) > 0);
  if (busy)
    refuse("producto_apartado", `No se puede quitar ${words.the} ${busy.value} de ${p.name}: ${HELD}`);

  // Each size's stock first (the product's row is already ours), then the sum by the same amount.
  for (const v of [...changes].sort(byId)) {
    if (v.delta === 0) continue;
    const changed = await trx
      .updateTable("product_options")
      .set({ stock: sql`stock + ${v.delta}` })
      .where("id", "=", v.id)
      .where(sql<boolean>`stock + ${v.delta} >= 0`)
      .where(sql<boolean>`(${v.delta} <= 0 or stock + ${v.delta} <= ${MAX_STOCK})`)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      const left = await trx
        .selectFrom("product_options")
        .select("stock")
        .where("id", "=", v.id)
        .executeTakeFirst();
      refuseStock(`${p.name} ${words.noun} ${v.value}`, left?.stock ?? 0, v.delta);
    }
  }
  if (storedOption === null) {
    // It had no sizes: its stock is now theirs. The sizes' stocks are typed whole, not as changes,
    // so pieces sold since the form loaded would be sold again: the owner splits what is left.
    const now = await trx.selectFrom("products").select("stock").where("id", "=", p.id).executeTakeFirst();
    const left = now?.stock ?? 0;
    if (p.stockLoaded !== undefined && left !== p.stockLoaded) {
      refuse(
        "stock_cambio",
        left === 0
          ? `El stock de ${p.name} cambió mientras editabas: ya no quedan piezas. Recarga la página.`
          : `El stock de ${p.name} cambió mientras editabas (ahora hay ${left}): recarga la página y reparte ${left === 1 ? "la pieza que queda" : `las ${left} que quedan`} en ${words.plural}.`,
      );
    }
    await trx
      .updateTable("products")
      .set({ stock: sum(added.map((v) => v.stock)) })
      .where("id", "=", p.id)
      .execute();
  } else {
    const delta =
      sum(changes.map((v) => v.delta)) + sum(added.map((v) => v.stock)) - sum(removed.map((v) => v.stock));
    await moveStock(trx, p, delta, stamp);
  }

  if (removed.length > 0) {
    await trx
      .deleteFrom("product_options")
      .where(
        "id",
        "in",
        removed.map((v) => v.id),
      )
      .execute();
  }
  await writeNamesAndPlaces(trx, changes);
  await insertOptionValues(trx, p.id, added);
  return changes.filter((v) => v.delta > 0).map((v) => ({ id: v.id, delta: v.delta }));
}

type StoredValue = { id: string; value: string; stock: number; position: number };

/**
 * The form's sizes against the stored ones: those kept (each once, the product's own, with the
 * stock the form loaded) with their difference, those taken off, those added; each at its place.
 */
function valueChanges(p: ProductInput, option: NonNullable<ProductInput["option"]>, stored: StoredValue[]) {
  const words = optionWords(option.name);
  const storedById = new Map(stored.map((v) => [v.id, v]));
  const placed = option.values.map((v, position) => ({ ...v, position }));
  const kept = placed.filter((v) => v.id !== "");
  if (new Set(kept.map((v) => v.id)).size !== kept.length) {
    refuse("producto_ajeno", `${capitalized(words.one)} de ${p.name} aparece dos veces: recarga la página.`);
  }
  const changes = kept.map((v) => {
    const before = storedById.get(v.id);
    if (!before) {
      refuse(
        "producto_ajeno",
        `${capitalized(words.the)} ${v.value} de ${p.name} ya no existe: recarga la página.`,
      );
    }
    if (v.stockLoaded === null) {
      // Without the stock the form showed, a typed one could undo sales: ask for a fresh form.
      refuse(
        "stock_cambio",
        `No sabemos qué stock de ${p.name} ${words.noun} ${v.value} tenías a la vista: recarga la página y vuelve a escribirlo.`,
      );
    }
    return { ...v, before, delta: v.stock - v.stockLoaded };
  });
  const keptIds = new Set(kept.map((v) => v.id));
  return {
    changes,
    removed: stored.filter((v) => !keptIds.has(v.id)),
    added: placed.filter((v) => v.id === ""),
  };
}

/**
 * Kept sizes take the form's text and place. Renamed ones pass through their id as a placeholder,
 * so two sizes trading names never meet the one-value-per-product rule halfway.
 */
async function writeNamesAndPlaces(
  trx: Db,
  changes: { id: string; value: string; position: number; before: StoredValue }[],
) {
  for (const v of changes.filter((c) => c.before.value !== c.value)) {
    await trx.updateTable("product_options").set({ value: v.id }).where("id", "=", v.id).execute();
  }
  for (const v of changes) {
    if (v.before.value === v.value && v.before.position === v.position) continue;
    await trx
      .updateTable("product_options")
      .set({ value: v.value, position: v.position })
      .where("id", "=", v.id)
      .execute();
  }
}
