import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalStorage } from "./local-storage.server";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

async function storageWith(keys: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "media-"));
  roots.push(root);
  const storage = createLocalStorage(root);
  for (const key of keys) await storage.put(key, Buffer.from(key), "image/webp");
  const left = () =>
    fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
  return { storage, left };
}

describe("local media storage", () => {
  it("deletes one item's variants and nothing else", async () => {
    const { storage, left } = await storageWith([
      "drops/abc/m1-480.webp",
      "drops/abc/m1-960.webp",
      "drops/abc/m2-480.webp",
    ]);
    await storage.deletePrefix("drops/abc/m1");
    expect(left()).toEqual(["drops/abc/m2-480.webp"]);
  });

  it("a folder prefix removes that folder only, not its look-alike neighbours", async () => {
    const { storage, left } = await storageWith([
      "drops/abc/m1-480.webp",
      "drops/abcdef/m2-480.webp",
      "drops-backup/x.webp",
    ]);
    await storage.deletePrefix("drops/abc/");
    expect(left()).toEqual(["drops-backup/x.webp", "drops/abcdef/m2-480.webp"]);
  });

  it("refuses keys that could leave its folder or touch hidden files", async () => {
    const { storage } = await storageWith([]);
    for (const bad of ["../shop.db", "drops/../../etc", "/etc/passwd", "drops/.", "drops//x", ".env"]) {
      await expect(storage.deletePrefix(bad), bad).rejects.toThrow(/Unsafe media key/);
      expect(() => storage.publicUrl(bad), bad).toThrow(/Unsafe media key/);
    }
  });
});
