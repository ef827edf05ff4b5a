import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { countDrops, getDrop, listDrops } from "~/catalogue/catalogue.server";
import { dropTimeState } from "~/catalogue/drop-time";
import { PRICE_RANGES } from "~/catalogue/filters";
import { CATEGORIAS, MATERIALES } from "~/db/taxonomy";
import { progressLines, seedDemoOnFirstStart } from "~/demo/seed.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { describeEachDatabase } from "../support/databases";

// Drawing the demo catalogue's images takes a while on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
// The first engine's run draws every image for real and keeps them by content (DEMO_ART_CACHE);
// the second's copies them, so the catalogue is drawn once per run of this file.
const artCache = path.join(mediaRoot, "art-cache");
afterAll(() => fs.rmSync(mediaRoot, { recursive: true, force: true }));

describeEachDatabase("demo catalogue", (harness) => {
  it("fills an empty shop once, with one drop in each situation and real images", async () => {
    const database = await harness.fresh();
    const storage = createLocalStorage(path.join(mediaRoot, harness.dialect));
    const now = new Date();

    const progress: [number, number][] = [];
    const lines: string[] = [];
    const printed = progressLines((line) => lines.push(line));
    const onProgress = (done: number, total: number) => {
      progress.push([done, total]);
      printed(done, total);
    };
    expect(await seedDemoOnFirstStart(database.db, storage, { now, onProgress, artCache })).toBe(true);
    const drops = await listDrops(database.db);
    expect(drops).toHaveLength(4);
    // Progress counts every image once, up to the number stored; the log says it in a few lines.
    const stored = await database.db.selectFrom("media").select("id").execute();
    expect(progress.map(([done]) => done)).toEqual(stored.map((_, i) => i + 1));
    expect(progress.every(([, total]) => total === stored.length)).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines.at(-1)).toBe(
      `Catálogo de demostración: ${stored.length} de ${stored.length} imágenes dibujadas.`,
    );

    const states = drops.map((d) => (d.status === "archivada" ? "archivada" : dropTimeState(d, now)));
    expect(new Set(states)).toEqual(new Set(["running", "pending", "ended", "archivada"]));

    const products = drops.flatMap((d) => d.products);
    expect(products.length).toBeGreaterThanOrEqual(28);
    expect(new Set(products.map((p) => p.categoria))).toEqual(new Set(CATEGORIAS));
    expect(new Set(products.map((p) => p.material))).toEqual(new Set(MATERIALES));
    for (const range of PRICE_RANGES) {
      expect(products.some((p) => p.priceCents >= range.min && p.priceCents < range.max)).toBe(true);
    }
    expect(products.some((p) => p.stock === 0)).toBe(true);
    expect(products.every((p) => Number.isInteger(p.priceCents) && p.priceCents > 0)).toBe(true);
    // Every piece says its metal: karat and weight stored (2.35 g as 2350 mg), stones where it has them.
    expect(products.every((p) => p.metal.karat !== null && p.metal.weightMg !== null)).toBe(true);
    expect(products.find((p) => p.name === "Anillo Marea")?.metal).toEqual({
      karat: 14,
      weightMg: 2350,
      stones: "Perla de agua dulce de 6 mm",
    });
    expect(new Set(products.map((p) => p.metal.karat))).toEqual(new Set([10, 14, 18]));

    // Every product has a main image stored as WebP files under its drop's folder, and up to four
    // extra images (the product page's gallery).
    const extraCounts: number[] = [];
    for (const drop of drops) {
      expect(drop.image).not.toBeNull();
      const detail = await getDrop(database.db, drop.id, { extraImages: true });
      expect(detail?.products.map((p) => p.id)).toEqual(drop.products.map((p) => p.id));
      for (const p of detail?.products ?? []) {
        expect(p.image?.key.startsWith(`drops/${drop.id}/`)).toBe(true);
        expect(p.extraImages.length).toBeLessThanOrEqual(4);
        extraCounts.push(p.extraImages.length);
        for (const extra of p.extraImages) expect(extra.key.startsWith(`drops/${drop.id}/`)).toBe(true);
        const smallest = `${p.image?.key}-${p.image?.widths.split(",")[0]}.webp`;
        const file = fs.readFileSync(path.join(mediaRoot, harness.dialect, smallest));
        expect(file.subarray(8, 12).toString()).toBe("WEBP");
      }
    }
    // Galleries are really loaded: some pieces reach the limit of four, some have none.
    expect(extraCounts).toContain(4);
    expect(extraCounts).toContain(0);

    // The upcoming drop has an 'Avísame' list in every state (Campañas shows it); no e-mail was queued.
    const upcoming = drops.find((d) => d.status !== "archivada" && dropTimeState(d, now) === "pending");
    const signUps = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["drop_id", "status", "confirmed_at", "unsubscribed_at"])
      .execute();
    expect(signUps.length).toBeGreaterThanOrEqual(5);
    expect(signUps.every((s) => s.drop_id === upcoming?.id)).toBe(true);
    expect(new Set(signUps.map((s) => s.status))).toEqual(new Set(["pendiente", "confirmada", "baja"]));
    expect(signUps.filter((s) => s.status !== "pendiente").every((s) => s.confirmed_at !== null)).toBe(true);
    expect(signUps.filter((s) => s.status === "baja").every((s) => s.unsubscribed_at !== null)).toBe(true);
    expect(await database.db.selectFrom("emails").select("id").execute()).toEqual([]);

    // A second start keeps what is there, even after the owner deleted every drop.
    expect(await seedDemoOnFirstStart(database.db, storage)).toBe(false);
    await database.db.deleteFrom("drops").execute();
    expect(await seedDemoOnFirstStart(database.db, storage)).toBe(false);
    expect(await countDrops(database.db)).toBe(0);
  });
});
