import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { type Database, openDatabase } from "~/db/database.server";
import { runningPiece } from "../support/catalogue";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * The collection's 'Talla' filter (issue 24), as a browser without JavaScript uses it: the group
 * appears only on a collection with sized pieces, lists the sizes its pieces come in, and the GET
 * form's `talla=` narrows the grid; values the collection lacks are ignored, never an error.
 */

vi.setConfig({ testTimeout: 120_000 });
const HOUR = 3_600_000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-size-filters-"));
let server: RunningServer;
let database: Database;

beforeAll(async () => {
  const dataDir = path.join(tmp, "data");
  server = await startServer({ DATA_DIR: dataDir, DEMO_DATA: "false", DEMO_PAYMENTS: "true" });
  database = await openDatabase({ kind: "sqlite", file: path.join(dataDir, "shop.db") });
});
afterAll(async () => {
  await database?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const page = async (pathname: string) => {
  const res = await fetch(`${server.url}${pathname}`);
  expect(res.status).toBe(200);
  return res.text();
};
/** The pieces the grid shows, by name (each tile is an article named after its piece). */
const tiles = (html: string) => [...html.matchAll(/<article[^>]*aria-label="([^"]+)"/g)].map((m) => m[1]);
/** The values of the 'Talla' chips, in the order shown (the panel's form, then the phone's sheet). */
const sizeChips = (html: string) => [
  ...new Set([...html.matchAll(/<input[^>]*name="talla"[^>]*value="([^"]+)"/g)].map((m) => m[1])),
];

const ring = (name: string, sizes: Record<string, number>) => ({
  name,
  categoria: "Anillo" as const,
  material: "Oro amarillo" as const,
  priceCents: 450_000,
  stock: 0,
  imageId: null,
  option: {
    name: "Talla" as const,
    values: Object.entries(sizes).map(([value, stock]) => ({ value, stock })),
  },
});

it("a collection with sized rings shows 'Talla' with its sizes in order, and the sizes chosen narrow the grid", async () => {
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(Date.now() - HOUR),
    endAt: new Date(Date.now() + HOUR),
    products: [
      ring("Anillo Marea", { "8": 1, "6.5": 1, "7": 0 }),
      ring("Anillo Ola", { "7": 2 }),
      {
        name: "Cadena Sola",
        categoria: "Collar",
        material: "Oro rosa",
        priceCents: 200_000,
        stock: 4,
        imageId: null,
      },
    ],
  });
  const base = `/coleccion/${dropId}`;
  const all = await page(base);
  expect(all).toMatch(/<legend[^>]*>Talla<\/legend>/);
  expect(all).not.toMatch(/<legend[^>]*>Largo<\/legend>/);
  expect(sizeChips(all)).toEqual(["6.5", "7", "8"]);
  expect(tiles(all).sort()).toEqual(["Anillo Marea", "Anillo Ola", "Cadena Sola"]);

  // Pieces that come in size 7, sold out in it or not; the chain has no sizes.
  expect(tiles(await page(`${base}?talla=7`)).sort()).toEqual(["Anillo Marea", "Anillo Ola"]);
  // With 'Solo disponibles', only where size 7 itself has a piece left.
  expect(tiles(await page(`${base}?talla=7&disponibles=1`))).toEqual(["Anillo Ola"]);
  expect(tiles(await page(`${base}?talla=8&talla=6.5`))).toEqual(["Anillo Marea"]);
  // The chosen chip comes back ticked, and the count on 'Filtrar (N)' counts it.
  const chosen = await page(`${base}?talla=8`);
  const ticked = [...chosen.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => tag.includes('name="talla"') && tag.includes('checked=""'))
    .map((tag) => /value="([^"]+)"/.exec(tag)?.[1]);
  // Once in the desktop panel, once in the phone's sheet.
  expect(ticked).toEqual(["8", "8"]);
  expect(chosen).toContain("Filtrar (1)");
  // 'Solo disponibles' alone keeps both rings: each has a size with a piece left.
  expect(tiles(await page(`${base}?disponibles=1`)).sort()).toEqual([
    "Anillo Marea",
    "Anillo Ola",
    "Cadena Sola",
  ]);

  // A size the collection does not have, or junk, is ignored: the whole collection, no error.
  for (const junk of ["talla=99", "talla=%00%27;drop", `talla=${"7".repeat(200)}`, "talla=&talla="]) {
    const html = await page(`${base}?${junk}`);
    expect(tiles(html)).toHaveLength(3);
    expect(html).not.toContain("Filtrar (1)");
  }
});

it("a collection without sized pieces shows no 'Talla' group, and a size in its link changes nothing", async () => {
  const piece = await runningPiece(database, { stock: 2, name: "Arete Luna" });
  const html = await page(`/coleccion/${piece.dropId}`);
  expect(html).not.toMatch(/<legend[^>]*>Talla<\/legend>/);
  expect(html).not.toContain('name="talla"');
  expect(tiles(html)).toEqual(["Arete Luna"]);
  expect(tiles(await page(`/coleccion/${piece.dropId}?talla=7`))).toEqual(["Arete Luna"]);
});
