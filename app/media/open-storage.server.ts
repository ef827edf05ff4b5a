import type { Config } from "~/config/env.server";
import { createLocalStorage } from "./local-storage.server";
import type { MediaStorage } from "./storage.server";

/**
 * The media storage the configuration names, created once per process. The AWS SDK is loaded only
 * for S3: a shop on local disk never reads its files.
 */
export async function openMediaStorage(config: Pick<Config, "media" | "mediaDir">): Promise<MediaStorage> {
  if (config.media.kind !== "s3") return createLocalStorage(config.mediaDir);
  const { createS3Storage } = await import("./s3-storage.server");
  return createS3Storage(config.media);
}
