import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeKey, MediaKeyTaken, type MediaStorage } from "./storage.server";

export const LOCAL_MEDIA_ROUTE = "/media";

export function createLocalStorage(root: string): MediaStorage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  async function listWithDates(folder: string) {
    assertSafeKey(folder);
    const base = path.join(root, folder);
    const entries = await fsp.readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    const files = entries.filter((e) => e.isFile() && !e.name.endsWith(".tmp"));
    const listed = await Promise.all(
      files.map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        const stat = await fsp.stat(file).catch(() => null);
        return stat
          ? { key: path.relative(root, file).split(path.sep).join("/"), modifiedAt: stat.mtime }
          : null;
      }),
    );
    return listed.filter((e) => e !== null).sort((a, b) => (a.key < b.key ? -1 : 1));
  }
  return {
    kind: "local",
    async put(key, body) {
      const file = resolve(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      // Written aside, then linked into place: a reader never sees half a file, and the link
      // fails if the key exists (objects are never overwritten).
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp));
        await fsp.link(tmp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new MediaKeyTaken(key);
        throw error;
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },
    async read(key) {
      try {
        return await fsp.readFile(resolve(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix);
      if (prefix.endsWith("/")) {
        await fsp.rm(path.join(root, prefix), { recursive: true, force: true });
        return;
      }
      const dir = path.join(root, path.dirname(prefix));
      const base = path.basename(prefix);
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      await Promise.all(
        entries
          // Its variants (`<id>-480.webp`) or the file itself (`<id>.mp4`), never a look-alike id.
          .filter(
            (e) =>
              e.isFile() &&
              (e.name === base || e.name.startsWith(`${base}-`) || e.name.startsWith(`${base}.`)),
          )
          .map((e) => fsp.rm(path.join(dir, e.name), { recursive: true, force: true })),
      );
    },
    list: async (folder) => (await listWithDates(folder)).map((e) => e.key),
    listWithDates,
    publicUrl(key) {
      assertSafeKey(key);
      return `${LOCAL_MEDIA_ROUTE}/${key}`;
    },
  };
}
