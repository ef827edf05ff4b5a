import type { Config } from "~/config/env.server";
import { createLocalStorage } from "./local-storage.server";
import { createS3Storage } from "./s3-storage.server";
import type { MediaStorage } from "./storage.server";

/** The media storage the configuration names, created once per process. */
export function openMediaStorage(config: Pick<Config, "media" | "mediaDir">): MediaStorage {
  return config.media.kind === "s3" ? createS3Storage(config.media) : createLocalStorage(config.mediaDir);
}
