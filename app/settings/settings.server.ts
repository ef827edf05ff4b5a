import type { ShopDetails } from "~/config/shop-details";
import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import {
  applyOverrides,
  overridesFrom,
  parseOverrides,
  type SettingsField,
  type SettingsOverrides,
  type SettingsValues,
  type ShopSettings,
  settingsFromEnvironment,
} from "./settings";

/*
 * Configuración's store and the copy each app server keeps in memory (decision 24). Pages read
 * `current()` (no database read per request); every server reads the one version number every
 * POLL_MS and reloads the row when it moved, and the server that saved applies at once.
 */

export const POLL_MS = 2_000;

export interface StoredSettings {
  version: number;
  overrides: SettingsOverrides;
  updatedAt: Date | null;
}

export async function readStoredSettings(db: Db): Promise<StoredSettings> {
  const row = await db
    .selectFrom("shop_settings")
    .select(["version", "overrides", "updated_at"])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return { version: 0, overrides: {}, updatedAt: null };
  return {
    version: Number(row.version),
    overrides: parseOverrides(row.overrides),
    updatedAt: row.updated_at ? new Date(row.updated_at) : null,
  };
}

async function readVersion(db: Db): Promise<number> {
  const row = await db.selectFrom("shop_settings").select("version").where("id", "=", 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Replaces the stored overrides; the version grows by one. Returns the new version. */
export async function writeStoredSettings(
  db: Db,
  overrides: SettingsOverrides,
  now = new Date(),
): Promise<number> {
  const row = await db
    .updateTable("shop_settings")
    .set((eb) => ({
      overrides: JSON.stringify(overrides),
      version: eb("version", "+", 1),
      updated_at: toTimestamp(now),
    }))
    .where("id", "=", 1)
    .returning("version")
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

export interface ShopSettingsService {
  /** The settings in force on this server. */
  current(): ShopSettings;
  /** What nothing stored would give (the environment). */
  defaults(): ShopSettings;
  /** Which fields the owner changed (a 'Restablecer' is offered for those). */
  changed(): Set<SettingsField>;
  version(): number;
  updatedAt(): Date | null;
  /** Saves the form's values (only what differs from the environment is kept). */
  save(values: SettingsValues, shown: ShopDetails): Promise<void>;
  /** Back to the environment's value for these fields. */
  reset(fields: readonly SettingsField[]): Promise<void>;
  /** Reads the version now and reloads if it moved (the poll does this every POLL_MS). */
  refresh(): Promise<boolean>;
  /** Called after every change of the settings in force, whichever server saved. */
  onChange(listener: (settings: ShopSettings) => void): void;
  stop(): void;
}

export async function startShopSettings(
  db: Db,
  environment: ShopDetails,
  options: { pollMs?: number; log?: (line: string) => void } = {},
): Promise<ShopSettingsService> {
  const defaults = settingsFromEnvironment(environment);
  let stored = await readStoredSettings(db);
  let settings = applyOverrides(defaults, stored.overrides);
  const listeners: ((s: ShopSettings) => void)[] = [];

  const apply = (next: StoredSettings) => {
    // A slower read must not put an older version back.
    if (next.version < stored.version) return;
    stored = next;
    settings = applyOverrides(defaults, next.overrides);
    for (const listener of listeners) listener(settings);
  };

  let reading = false;
  const refresh = async () => {
    if (reading) return false;
    reading = true;
    try {
      if ((await readVersion(db)) === stored.version) return false;
      apply(await readStoredSettings(db));
      return true;
    } finally {
      reading = false;
    }
  };

  const pollMs = options.pollMs ?? POLL_MS;
  const timer =
    pollMs > 0
      ? setInterval(() => {
          // A failed read (database restarting) is tried again on the next tick.
          refresh().catch((error) => options.log?.(`Configuración: no se pudo leer (${String(error)})`));
        }, pollMs)
      : null;
  timer?.unref();

  const write = async (overrides: SettingsOverrides) => {
    const version = await writeStoredSettings(db, overrides);
    apply({ version, overrides, updatedAt: new Date() });
  };

  return {
    current: () => settings,
    defaults: () => defaults,
    changed: () => new Set(Object.keys(stored.overrides) as SettingsField[]),
    version: () => stored.version,
    updatedAt: () => stored.updatedAt,
    async save(values, shown) {
      await write(overridesFrom(defaults, values, shown));
    },
    async reset(fields) {
      // The latest stored row, not this server's copy: another server may have saved meanwhile.
      const latest = await readStoredSettings(db);
      const overrides = { ...latest.overrides };
      for (const field of fields) delete overrides[field];
      await write(overrides);
    },
    refresh,
    onChange(listener) {
      listeners.push(listener);
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
