import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "~/config/s3-settings";

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1 with one bucket, its objects in a temporary
 * folder. `settings` is what the shop's S3 storage needs to use it.
 */
export async function startS3Server(bucket = "tienda-medios"): Promise<{
  settings: S3Settings;
  stop(): Promise<void>;
}> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    settings: {
      bucket,
      region: "us-east-1",
      endpoint,
      publicUrl: `${endpoint}/${bucket}`,
      forcePathStyle: true,
      // s3rver's fixed development credentials.
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
