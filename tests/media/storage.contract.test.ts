import fs from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, LOCAL_MEDIA_ROUTE } from "~/media/local-storage.server";
import { createS3Storage } from "~/media/s3-storage.server";
import { MediaKeyTaken, type MediaStorage } from "~/media/storage.server";
import { localMedia } from "../../server/static-files";
import { startS3Server } from "../support/s3-server";

/*
 * One contract for both media storages: what the shop writes can be read back over HTTP at its
 * public address, objects are never overwritten, and deletes remove exactly what they name.
 * Local disk is served by the shop's own /media handler; S3 by a real S3-compatible server.
 */

interface Target {
  storage: MediaStorage;
  /** The public address as a browser would fetch it. */
  url(key: string): string;
  stop(): Promise<void>;
}

async function localTarget(): Promise<Target> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "media-local-"));
  const app = express();
  app.use(LOCAL_MEDIA_ROUTE, localMedia(root));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  const storage = createLocalStorage(root);
  return {
    storage,
    url: (key) => `http://127.0.0.1:${port}${storage.publicUrl(key)}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

async function s3Target(): Promise<Target> {
  const s3 = await startS3Server();
  const storage = createS3Storage(s3.settings);
  return { storage, url: (key) => storage.publicUrl(key), stop: s3.stop };
}

const body = (text: string) => Buffer.from(text);

describe.each([
  ["local disk", localTarget],
  ["S3-compatible storage", s3Target],
] as const)("media storage: %s", (_name, start) => {
  let target: Target;
  let storage: MediaStorage;
  beforeAll(async () => {
    target = await start();
    storage = target.storage;
  });
  afterAll(() => target?.stop());

  const fetched = async (key: string) => {
    const res = await fetch(target.url(key));
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it("what is put is read back over HTTP at its public address, with its type", async () => {
    await storage.put("drops/d1/m1-480.webp", body("imagen 480"), "image/webp");
    const read = await fetched("drops/d1/m1-480.webp");
    expect(read.status).toBe(200);
    expect(read.type).toBe("image/webp");
    expect(read.body.toString()).toBe("imagen 480");
  });

  it("a photo's JPEG copy is served as image/jpeg, and the shop reads back what it stored", async () => {
    await storage.put("drops/d6/m1-480.jpg", body("copia jpeg"), "image/jpeg");
    const read = await fetched("drops/d6/m1-480.jpg");
    expect(read.status).toBe(200);
    expect(read.type).toBe("image/jpeg");
    expect((await storage.read("drops/d6/m1-480.jpg"))?.toString()).toBe("copia jpeg");
    // Nothing there: null, not an error.
    expect(await storage.read("drops/d6/m1-960.jpg")).toBeNull();
    expect(await storage.read("drops/nada/m1-480.webp")).toBeNull();
    await expect(storage.read("../shop.db")).rejects.toThrow(/Unsafe media key/);
  });

  it("a streamed body of many megabytes arrives whole", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const parts = 20;
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < parts; i++) yield chunk;
      })(),
    );
    await storage.put("drops/d1/video-1.mp4", stream, "video/mp4");
    const read = await fetched("drops/d1/video-1.mp4");
    expect(read.status).toBe(200);
    expect(read.body.length).toBe(parts * chunk.length);
    expect(read.body.every((b) => b === 7)).toBe(true);
  });

  it("an existing key is never overwritten", async () => {
    await storage.put("drops/d2/m1-480.webp", body("primera"), "image/webp");
    await expect(storage.put("drops/d2/m1-480.webp", body("segunda"), "image/webp")).rejects.toThrow(
      MediaKeyTaken,
    );
    expect((await fetched("drops/d2/m1-480.webp")).body.toString()).toBe("primera");
  });

  it("deleting an item removes its variants and nothing else", async () => {
    for (const key of ["drops/d3/m1-480.webp", "drops/d3/m1-960.webp", "drops/d3/m2-480.webp"]) {
      await storage.put(key, body(key), "image/webp");
    }
    await storage.deletePrefix("drops/d3/m1");
    expect((await fetched("drops/d3/m1-480.webp")).status).toBe(404);
    expect((await fetched("drops/d3/m1-960.webp")).status).toBe(404);
    expect((await fetched("drops/d3/m2-480.webp")).status).toBe(200);
    expect(await storage.list("drops/d3/")).toEqual(["drops/d3/m2-480.webp"]);
  });

  it("deleting a folder removes that folder only, not a look-alike neighbour", async () => {
    for (const key of ["drops/d4/a-480.webp", "drops/d4/b-480.webp", "drops/d4x/c-480.webp"]) {
      await storage.put(key, body(key), "image/webp");
    }
    await storage.deletePrefix("drops/d4/");
    expect(await storage.list("drops/d4/")).toEqual([]);
    expect((await fetched("drops/d4/a-480.webp")).status).toBe(404);
    expect(await storage.list("drops/d4x/")).toEqual(["drops/d4x/c-480.webp"]);
    // Deleting what is not there is not an error.
    await storage.deletePrefix("drops/d4/");
    await storage.deletePrefix("drops/nada/m1");
  });

  it("lists every key under a folder, for the sweep of unused files", async () => {
    await storage.put("drops/d5/a-480.webp", body("a"), "image/webp");
    await storage.put("drops/d5/b.mp4", body("b"), "video/mp4");
    expect(await storage.list("drops/d5/")).toEqual(["drops/d5/a-480.webp", "drops/d5/b.mp4"]);
    const dated = await storage.listWithDates("drops/d5/");
    expect(dated.map((e) => e.key)).toEqual(["drops/d5/a-480.webp", "drops/d5/b.mp4"]);
    // When each was written, to the second, for the sweep's grace period.
    for (const e of dated) expect(Math.abs(e.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("refuses keys that could leave its folder or touch hidden files", async () => {
    for (const bad of ["../shop.db", "drops/../../etc", "/etc/passwd", "drops/.", "drops//x", ".env"]) {
      await expect(storage.put(bad, body("x"), "image/webp"), bad).rejects.toThrow(/Unsafe media key/);
      await expect(storage.deletePrefix(bad), bad).rejects.toThrow(/Unsafe media key/);
      expect(() => storage.publicUrl(bad), bad).toThrow(/Unsafe media key/);
    }
  });
});

describe("S3-compatible storage that refuses a delete", () => {
  // A bucket whose policy forbids deleting: S3 answers 200 and names, in the body, what it kept.
  let server: http.Server;
  let endpoint = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader("Content-Type", "application/xml");
      if (req.method === "GET") {
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>tienda</Name><Prefix>drops/d9/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>drops/d9/a-480.webp</Key><Size>1</Size></Contents></ListBucketResult>',
        );
        return;
      }
      req.resume();
      req.on("end", () =>
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Error><Key>drops/d9/a-480.webp</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>',
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("says so: a delete it refused is a failure, not a sweep that leaves the files", async () => {
    const storage = createS3Storage({
      bucket: "tienda",
      region: "us-east-1",
      endpoint,
      publicUrl: `${endpoint}/tienda`,
      forcePathStyle: true,
      credentials: { accessKeyId: "x", secretAccessKey: "y" },
    });
    await expect(storage.deletePrefix("drops/d9/")).rejects.toThrow(
      "S3 no borró 1 archivo (AccessDenied: drops/d9/a-480.webp)",
    );
  });
});
