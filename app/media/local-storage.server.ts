import fs from "node:fs/promises";
import path from "node:path";
import { assertSafeKey, type MediaStorage } from "./storage.server";

export const LOCAL_MEDIA_ROUTE = "/media";

export function createLocalStorage(root: string): MediaStorage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, file);
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix);
      if (prefix.endsWith("/")) {
        await fs.rm(path.join(root, prefix), { recursive: true, force: true });
        return;
      }
      const dir = path.join(root, path.dirname(prefix));
      const base = path.basename(prefix);
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      await Promise.all(
        entries
          .filter((e) => e.name.startsWith(base))
          .map((e) => fs.rm(path.join(dir, e.name), { recursive: true, force: true })),
      );
    },
    publicUrl(key) {
      assertSafeKey(key);
      return `${LOCAL_MEDIA_ROUTE}/${key}`;
    },
  };
}
