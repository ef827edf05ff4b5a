import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { copySqliteTemplate } from "../support/databases";
import { startS3Server } from "../support/s3-server";
import { type RunningServer, startServer } from "../support/server-process";

// The first start draws and uploads the demo catalogue's images: allow for a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
let s3: Awaited<ReturnType<typeof startS3Server>>;
let server: RunningServer;

beforeAll(async () => {
  s3 = await startS3Server();
  const { bucket, endpoint, publicUrl, credentials } = s3.settings;
  copySqliteTemplate(path.join(tmp, "shop.db"));
  server = await startServer({
    DATA_DIR: tmp,
    MEDIA_STORAGE: "s3",
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint ?? "",
    S3_PUBLIC_URL: publicUrl,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: credentials?.accessKeyId ?? "",
    S3_SECRET_ACCESS_KEY: credentials?.secretAccessKey ?? "",
  });
});
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("a shop on S3-compatible storage shows images from the bucket's public address, allowed by its CSP", async () => {
  const res = await fetch(`${server.url}/`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const publicUrl = s3.settings.publicUrl;
  const sources = [...html.matchAll(/src="([^"]+\.webp)"/g)].map((m) => m[1] ?? "");
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources.slice(0, 5)) {
    expect(src.startsWith(`${publicUrl}/drops/`), src).toBe(true);
    const image = await fetch(src);
    expect(image.status, src).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
  }
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toMatch(
    new RegExp(`img-src [^;]*${new URL(publicUrl).origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
  // Nothing is written to the local media folder, and the shop's own /media serves nothing.
  expect(fs.existsSync(path.join(tmp, "media", "drops"))).toBe(false);
  expect((await fetch(`${server.url}/media/drops/x.webp`)).status).toBe(404);
});
