import { expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { formValues, type ShopSettings, settingsFromEnvironment } from "~/settings/settings";
import { readStoredSettings, startShopSettings } from "~/settings/settings.server";
import { describeEachDatabase } from "../support/databases";

/*
 * Configuración's store (decision 24): nothing stored means the environment's values; a save keeps
 * only what changed; another app server on the same database sees it on its next read of the
 * version; 'Restablecer' gives the environment's value back.
 */
const env = loadConfig({ SHOP_NAME: "Oro del Entorno", SHOP_WHATSAPP: "5215500000000" }).shop;

describeEachDatabase("shop settings", (harness) => {
  it("starts from the environment, and a save on one server reaches another on its next read", async () => {
    const database = await harness.fresh();
    const here = await startShopSettings(database.db, env, { pollMs: 0 });
    const there = await startShopSettings(database.db, env, { pollMs: 0 });
    try {
      expect(here.current()).toEqual(settingsFromEnvironment(env));
      expect(here.current().shop.name).toBe("Oro del Entorno");
      expect(here.changed().size).toBe(0);

      const seen: ShopSettings[] = [];
      there.onChange((s) => seen.push(s));
      const values = formValues(here.current());
      await here.save(
        {
          ...values,
          name: "Luna Nueva",
          whatsapp: "5215598765432",
          processVideoUrl: "https://player.vimeo.com/video/123",
          defaultMaxPerOrder: 3,
          carriers: [{ name: "Mensajería Oaxaca", trackingUrl: "https://mo.example/g/{guia}" }],
          legalShipping: "## Envíos\n\nSolo en Oaxaca, por ahora.",
        },
        here.current().shop,
      );
      // The server that saved has it at once; the other one once it reads the version.
      expect(here.current().shop.name).toBe("Luna Nueva");
      expect(there.current().shop.name).toBe("Oro del Entorno");
      expect(await there.refresh()).toBe(true);
      expect(await there.refresh()).toBe(false);
      expect(seen).toHaveLength(1);
      const after = there.current();
      expect(after.shop).toEqual({
        ...env,
        name: "Luna Nueva",
        whatsapp: "5215598765432",
        processVideoUrl: "https://player.vimeo.com/video/123",
      });
      expect(after.defaultMaxPerOrder).toBe(3);
      expect(after.carriers).toEqual([
        { name: "Mensajería Oaxaca", trackingUrl: "https://mo.example/g/{guia}" },
      ]);
      expect(after.legal.legalShipping).toBe("## Envíos\n\nSolo en Oaxaca, por ahora.");
      expect(after.legal.legalPrivacy).toBeNull();

      // Only what differs from the environment is stored.
      const stored = await readStoredSettings(database.db);
      expect(Object.keys(stored.overrides).sort()).toEqual(
        ["carriers", "defaultMaxPerOrder", "legalShipping", "name", "processVideoUrl", "whatsapp"].sort(),
      );
      expect(stored.version).toBe(1);

      // 'Restablecer' on the other server: the environment's name is back everywhere, the rest stays.
      await there.reset(["name", "carriers"]);
      await here.refresh();
      expect(here.current().shop.name).toBe("Oro del Entorno");
      expect(here.current().carriers).toEqual(settingsFromEnvironment(env).carriers);
      expect(here.current().shop.whatsapp).toBe("5215598765432");
      expect(here.changed()).toEqual(
        new Set(["whatsapp", "processVideoUrl", "defaultMaxPerOrder", "legalShipping"]),
      );
    } finally {
      here.stop();
      there.stop();
    }
  });

  it("a server started later reads what is stored, and a new environment value shows where nothing was changed", async () => {
    const database = await harness.fresh();
    const first = await startShopSettings(database.db, env, { pollMs: 0 });
    await first.save({ ...formValues(first.current()), name: "Luna Nueva" }, first.current().shop);
    first.stop();
    const moved = loadConfig({ SHOP_NAME: "Oro del Entorno", SHOP_EMAIL: "nuevo@orodeluna.mx" }).shop;
    const later = await startShopSettings(database.db, moved, { pollMs: 0 });
    expect(later.current().shop.name).toBe("Luna Nueva");
    expect(later.current().shop.email).toBe("nuevo@orodeluna.mx");
    later.stop();
  });

  it("polls the version by itself", async () => {
    const database = await harness.fresh();
    const polling = await startShopSettings(database.db, env, { pollMs: 50 });
    const saver = await startShopSettings(database.db, env, { pollMs: 0 });
    try {
      await saver.save({ ...formValues(saver.current()), agencyName: "Agencia Sol" }, saver.current().shop);
      await expect.poll(() => polling.current().shop.agencyName, { timeout: 5_000 }).toBe("Agencia Sol");
    } finally {
      polling.stop();
      saver.stop();
    }
  });
});
