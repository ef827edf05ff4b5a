import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { newId } from "~/lib/ids";
import { makeMissingJpegCopies } from "~/media/jpeg-copies.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import { SWEEP_GRACE_HOURS, sweepUnusedMedia } from "~/media/sweep.server";
import { STOREFRONT_MEDIA_FOLDER } from "~/settings/settings";
import { describeEachDatabase, untilWaitingOnLocks } from "../support/databases";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "media-sweep-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const HOUR = 3_600_000;
const png = () =>
  sharp({ create: { width: 600, height: 600, channels: 3, background: "#b8893b" } })
    .png()
    .toBuffer();

describeEachDatabase("the sweep of unused media", (harness) => {
  it("removes photos no drop uses and files no row names once they are old; keeps what is used or recent", async () => {
    const database = await harness.fresh();
    const mediaRoot = path.join(root, harness.dialect);
    const storage = createLocalStorage(mediaRoot);
    const db = database.db;
    const long = new Date(Date.now() - (SWEEP_GRACE_HOURS + 1) * HOUR);
    const dropId = newId();
    const stored = async (when: Date) => {
      const row = await storeImage(storage, { dropId, body: await png(), now: when });
      await db.insertInto("media").values(row).execute();
      return row;
    };
    const cover = await stored(long);
    const abandoned = await stored(long); // uploaded on a form that was never saved
    const fresh = await stored(new Date()); // a form that may still be open
    await createDrop(db, {
      id: dropId,
      name: "Mareas",
      startAt: new Date(Date.now() + HOUR),
      endAt: new Date(Date.now() + 2 * HOUR),
      imageId: cover.id,
      products: [],
    });
    // A cut-off upload: files without a row, one old, one just written.
    const cutOff = newId();
    const oldOrphan = `drops/${dropId}/${cutOff}-480.webp`;
    const oldOrphanCopy = `drops/${dropId}/${cutOff}-480.jpg`;
    const newOrphan = `drops/${dropId}/${newId()}-480.webp`;
    await storage.put(oldOrphan, await png(), "image/webp");
    await storage.put(oldOrphanCopy, await png(), "image/jpeg");
    await storage.put(newOrphan, await png(), "image/webp");
    fs.utimesSync(path.join(mediaRoot, oldOrphan), long, long);
    fs.utimesSync(path.join(mediaRoot, oldOrphanCopy), long, long);
    for (const row of [cover, abandoned]) {
      for (const file of await storage.list(`drops/${dropId}/`)) {
        if (file.startsWith(row.key)) fs.utimesSync(path.join(mediaRoot, file), long, long);
      }
    }

    expect(await sweepUnusedMedia(db, storage)).toEqual({ rows: 1, files: 2, copies: 0 });

    const rows = (await db.selectFrom("media").select("id").execute()).map((r) => r.id).sort();
    expect(rows).toEqual([cover.id, fresh.id].sort());
    const files = await storage.list(`drops/${dropId}/`);
    // The cover's WebP widths and its JPEG copy (for e-mails and link previews) all stay.
    expect(files.filter((f) => f.startsWith(cover.key))).toEqual([
      `${cover.key}-480.jpg`,
      `${cover.key}-480.webp`,
    ]);
    expect(files.some((f) => f.startsWith(fresh.key))).toBe(true);
    expect(files.some((f) => f.startsWith(abandoned.key))).toBe(false);
    expect(files).toContain(newOrphan);
    expect(files).not.toContain(oldOrphan);
    expect(files).not.toContain(oldOrphanCopy);
    // A second sweep (or another server's) finds nothing more.
    expect(await sweepUnusedMedia(db, storage)).toEqual({ rows: 0, files: 0, copies: 0 });
  });

  it("a save that names an old unused photo while the sweep runs keeps it, with its files", async () => {
    const database = await harness.fresh();
    const storage = createLocalStorage(path.join(root, `${harness.dialect}-race`));
    const db = database.db;
    const dropId = newId();
    const long = new Date(Date.now() - (SWEEP_GRACE_HOURS + 1) * HOUR);
    // Uploaded on the drop's form a day ago; the form is saved only now.
    const photo = await storeImage(storage, { dropId, body: await png(), now: long });
    await db.insertInto("media").values(photo).execute();
    await createDrop(db, {
      id: dropId,
      name: "Corales",
      startAt: new Date(Date.now() + HOUR),
      endAt: new Date(Date.now() + 2 * HOUR),
      products: [],
    });
    let named!: () => void;
    const isNamed = new Promise<void>((resolve) => {
      named = resolve;
    });
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const save = db.transaction().execute(async (trx) => {
      await trx.updateTable("drops").set({ image_id: photo.id }).where("id", "=", dropId).execute();
      named();
      await committing;
    });
    await isNamed;
    // PostgreSQL: the sweep reads the photo as unused before the save commits, then waits on the
    // lock the save's foreign-key check holds. SQLite: its reads wait for the save's transaction
    // (one connection), so there the race cannot happen and the test only shows the outcome.
    const sweep = sweepUnusedMedia(db, storage);
    await untilWaitingOnLocks(db);
    commit();
    await save;
    expect(await sweep).toEqual({ rows: 0, files: 0, copies: 0 });

    const drop = await db
      .selectFrom("drops")
      .select("image_id")
      .where("id", "=", dropId)
      .executeTakeFirstOrThrow();
    expect(drop.image_id).toBe(photo.id);
    expect(await db.selectFrom("media").select("id").where("id", "=", photo.id).execute()).toHaveLength(1);
    expect((await storage.list(`drops/${dropId}/`)).filter((f) => f.startsWith(photo.key))).not.toEqual([]);
  });

  it("keeps an old photo that Configuración names (the storefront's), and sweeps one it no longer names", async () => {
    const database = await harness.fresh();
    const storage = createLocalStorage(path.join(root, `${harness.dialect}-tienda`));
    const db = database.db;
    const long = new Date(Date.now() - (SWEEP_GRACE_HOURS + 1) * HOUR);
    const stored = async () => {
      const row = await storeImage(storage, {
        dropId: STOREFRONT_MEDIA_FOLDER,
        body: await png(),
        now: long,
      });
      await db.insertInto("media").values(row).execute();
      return row;
    };
    const hero = await stored();
    const replaced = await stored();
    expect(await sweepUnusedMedia(db, storage, new Date(), [hero.id])).toEqual({
      rows: 1,
      files: 0,
      copies: 0,
    });
    expect((await db.selectFrom("media").select("id").execute()).map((r) => r.id)).toEqual([hero.id]);
    expect(
      (await storage.list(`drops/${STOREFRONT_MEDIA_FOLDER}/`)).every((f) => f.startsWith(hero.key)),
    ).toBe(true);
    expect(replaced.key).not.toBe(hero.key);
  });

  it("puts back in line a photo whose JPEG copy went missing, or marked without copies while its WebP is stored; the job makes them again", async () => {
    const database = await harness.fresh();
    const storage = createLocalStorage(path.join(root, `${harness.dialect}-copias`));
    const db = database.db;
    const dropId = newId();
    const stored = async () => {
      const row = await storeImage(storage, { dropId, body: await png() });
      await db.insertInto("media").values(row).execute();
      return row;
    };
    // Recent uploads: the sweep deletes none of them.
    const [deletedByHand, misjudged, fine] = [await stored(), await stored(), await stored()];
    // A server of the version before the copies swept this one's JPEG as a file no row names.
    fs.rmSync(path.join(root, `${harness.dialect}-copias`, `${deletedByHand.key}-480.jpg`));
    // This one was marked as having none while the storage answered "not found" for everything.
    await db.updateTable("media").set({ jpeg_widths: "0" }).where("id", "=", misjudged.id).execute();
    fs.rmSync(path.join(root, `${harness.dialect}-copias`, `${misjudged.key}-480.jpg`));

    // Nothing is deleted; two are put back in line.
    expect(await sweepUnusedMedia(db, storage)).toEqual({ rows: 0, files: 0, copies: 2 });
    const widths = async () =>
      Object.fromEntries(
        (await db.selectFrom("media").select(["id", "jpeg_widths"]).execute()).map((r) => [
          r.id,
          r.jpeg_widths,
        ]),
      );
    expect(await widths()).toEqual({ [deletedByHand.id]: "", [misjudged.id]: "", [fine.id]: "480" });
    expect(await makeMissingJpegCopies(db, storage)).toEqual({ made: 2, lost: 0 });
    expect(await widths()).toEqual({ [deletedByHand.id]: "480", [misjudged.id]: "480", [fine.id]: "480" });
    for (const row of [deletedByHand, misjudged])
      expect(await storage.read(`${row.key}-480.jpg`)).not.toBeNull();
    expect(await sweepUnusedMedia(db, storage)).toEqual({ rows: 0, files: 0, copies: 0 });
  });
});
