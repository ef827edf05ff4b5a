import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Database, openDatabase } from "~/db/database.server";
import { runningPiece } from "../support/catalogue";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * The shop's answers that are not pages, read as a search engine or the countdown's script reads
 * them: the sitemap, robots.txt and the server's clock. (Until now asked for from the browser
 * tests, which needed no browser for them.)
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-public-documents-"));
let server: RunningServer;
let database: Database;

beforeAll(async () => {
  const dataDir = path.join(tmp, "data");
  server = await startServer({ DATA_DIR: dataDir, DEMO_DATA: "false", DEMO_PAYMENTS: "true" });
  // The server has made and migrated its SQLite file; the test writes into it as another app would.
  database = await openDatabase({ kind: "sqlite", file: path.join(dataDir, "shop.db") });
});
afterAll(async () => {
  await database?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (pathname: string) => fetch(`${server.url}${pathname}`, { redirect: "manual" });

it("sitemap.xml lists a running drop and its piece; robots.txt keeps robots out of /admin and names the sitemap", async () => {
  const piece = await runningPiece(database, { stock: 1, priceCents: 100_000, name: "Anillo Mapa" });
  const sitemap = await get("/sitemap.xml");
  expect(sitemap.status).toBe(200);
  expect(sitemap.headers.get("content-type")).toContain("application/xml");
  const xml = await sitemap.text();
  expect(xml).toContain(`/coleccion/${piece.dropId}</loc>`);
  expect(xml).toContain(`/drop/${piece.dropId}/product/${piece.id}</loc>`);

  const robots = await (await get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /admin");
  expect(robots).toMatch(/Sitemap: http:\/\/.+\/sitemap\.xml/);
});

it("/api/hora tells the server's time, never cached, with no cookie", async () => {
  const before = Date.now();
  const response = await get("/api/hora");
  const after = Date.now();
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("set-cookie")).toBeNull();
  const { ahora } = (await response.json()) as { ahora: number };
  expect(ahora).toBeGreaterThanOrEqual(before - 5);
  expect(ahora).toBeLessThanOrEqual(after + 5);
});
