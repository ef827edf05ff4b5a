import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRequestHandler } from "./request-handler";

// A resource route (a CSV, an upload, the sitemap) that throws gets React Router's own answer, a
// plain English "Unexpected Server Error"; the shop answers it in Spanish, as any other error.
let server: http.Server;
let url = "";
beforeAll(async () => {
  const app = express();
  app.locals.shopName = "Oro de Luna";
  app.all(
    "/{*splat}",
    createRequestHandler({
      fetch: async (request) =>
        new URL(request.url).pathname === "/bien"
          ? new Response("Pedido,Total\r\n", { headers: { "Content-Type": "text/csv" } })
          : new Response("Unexpected Server Error", {
              status: 500,
              headers: { "Content-Type": "text/plain" },
            }),
      getLoadContext: () => new RouterContextProvider(),
      maxBodyBytes: 1024,
      streamedPaths: [],
    }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("answers a route's unhandled error in Spanish, as a page or as JSON, never React Router's English text", async () => {
  const page = await fetch(`${url}/admin/reports/csv`, { headers: { Accept: "text/html" } });
  expect(page.status).toBe(500);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toContain("Algo salió mal. Intenta de nuevo en un momento.");
  expect(html).not.toContain("Unexpected Server Error");

  const json = await fetch(`${url}/admin/media`, { headers: { Accept: "application/json" } });
  expect(json.status).toBe(500);
  expect(await json.json()).toEqual({ message: "Algo salió mal. Intenta de nuevo en un momento." });

  // Any other answer goes out as the route gave it.
  const fine = await fetch(`${url}/bien`);
  expect(fine.status).toBe(200);
  expect(await fine.text()).toBe("Pedido,Total\r\n");
});
