import type { Readable } from "node:stream";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Settings } from "~/config/s3-settings";
import { assertSafeKey, MediaKeyTaken, type MediaStorage } from "./storage.server";

/** Objects are immutable (keys are never reused): browsers and CDNs may keep them for a year. */
const CACHE_CONTROL = "public, max-age=31536000, immutable";
/** A streamed upload is sent in parts of this size, a few at a time: memory stays bounded. */
const PART_BYTES = 8 * 1024 * 1024;

function notFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey")
  );
}

export function createS3Storage(settings: S3Settings): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // A stalled connection fails instead of holding an upload's spinner, or a media job, for ever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const Bucket = settings.bucket;
  const base = settings.publicUrl.replace(/\/+$/, "");

  async function exists(Key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key }));
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  }

  async function objectsUnder(Prefix: string): Promise<{ key: string; modifiedAt: Date }[]> {
    const objects: { key: string; modifiedAt: Date }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (object.Key) objects.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return objects.sort((a, b) => (a.key < b.key ? -1 : 1));
  }
  const keysUnder = async (prefix: string) => (await objectsUnder(prefix)).map((o) => o.key);

  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertSafeKey(key);
      // S3 refuses an existing key itself (If-None-Match: *); the check first covers services
      // that ignore that header.
      if (await exists(key)) throw new MediaKeyTaken(key);
      const params = {
        Bucket,
        Key: key,
        ContentType: contentType,
        CacheControl: CACHE_CONTROL,
        IfNoneMatch: "*",
      };
      try {
        if (Buffer.isBuffer(body)) {
          await client.send(new PutObjectCommand({ ...params, Body: body }));
        } else {
          await new Upload({
            client,
            params: { ...params, Body: body as Readable },
            partSize: PART_BYTES,
            queueSize: 2,
          }).done();
        }
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) {
          throw new MediaKeyTaken(key);
        }
        throw error;
      }
    },
    async read(key) {
      assertSafeKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix);
      const keys = await keysUnder(prefix);
      // A folder prefix ends in "/"; an item prefix matches its variants (`<id>-480.webp`…).
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        );
        // Quiet still names the keys it could not delete (a bucket policy, a key it may not use):
        // a failure, not a clean sweep that leaves the files.
        const refused = answer.Errors ?? [];
        if (refused.length > 0)
          throw new Error(
            `S3 no borró ${refused.length} ${refused.length === 1 ? "archivo" : "archivos"} (${refused[0]?.Code ?? "?"}: ${refused[0]?.Key ?? ""})`,
          );
      }
    },
    async list(folder) {
      assertSafeKey(folder);
      return keysUnder(folder);
    },
    async listWithDates(folder) {
      assertSafeKey(folder);
      return objectsUnder(folder);
    },
    publicUrl(key) {
      assertSafeKey(key);
      return `${base}/${key}`;
    },
  };
}
