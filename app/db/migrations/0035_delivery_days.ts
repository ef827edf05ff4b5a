import type { Kysely } from "kysely";

/*
 * The days after shipping an order counts as delivered, as they were in Configuración when it
 * shipped ('Días para dar un envío por entregado'): the owner changing them later moves no buyer's
 * return window (decision 44). Orders already on their way (shipped, not marked delivered) take the
 * days in force now; unshipped and delivered ones stay null.
 */

/** The setting's default when this migration was written. */
const DEFAULT_DAYS = 7;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("delivery_days", "integer").execute();
  const stored = await db
    .selectFrom("shop_settings")
    .select("overrides")
    .where("id", "=", 1)
    .executeTakeFirst();
  let days = DEFAULT_DAYS;
  try {
    const set = (JSON.parse(String(stored?.overrides ?? "{}")) as { deliveryDays?: unknown }).deliveryDays;
    if (typeof set === "number" && Number.isInteger(set) && set >= 1 && set <= 30) days = set;
  } catch {
    // Unreadable overrides: the shop itself reads them as none, and uses the default.
  }
  await db
    .updateTable("orders")
    .set({ delivery_days: days })
    .where("shipped_at", "is not", null)
    .where("delivered_at", "is", null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("delivery_days").execute();
}
