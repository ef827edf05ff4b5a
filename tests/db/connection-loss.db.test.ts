import net from "node:net";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "~/db/database.server";
import { describeEachDatabase } from "../support/databases";

/*
 * A PostgreSQL server that vanishes without a word (a failover, a network cut) leaves its
 * connections open and silent: a query sent on one must fail in a bounded time, or a job waiting
 * on it (releasing holds, refunds, mail) would never run again on that process.
 */

/** A TCP relay to `target` that can go silent: it stops passing bytes, and closes nothing. */
async function relay(target: { host: string; port: number }) {
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    client.on("data", (chunk) => {
      if (!silent) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!silent) client.write(chunk);
    });
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    goSilent() {
      silent = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections still open end with the test.
        server.unref();
      }),
  };
}

describeEachDatabase("a database server that vanishes without a word", (harness) => {
  it.skipIf(harness.dialect === "sqlite")(
    "a query on its silent connection fails within the query timeout instead of waiting for ever",
    async () => {
      await harness.fresh();
      const url = new URL(harness.lastUrl());
      const silent = await relay({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = "127.0.0.1";
      url.port = String(silent.port);
      const database = await openDatabase(
        { kind: "postgres", url: url.toString() },
        { poolMax: 1, queryTimeoutMs: 300 },
      );
      try {
        expect((await sql<{ n: number }>`select 1 as n`.execute(database.db)).rows).toEqual([{ n: 1 }]);
        silent.goSilent();
        const started = Date.now();
        await expect(sql`select 1`.execute(database.db)).rejects.toThrow(/timeout/i);
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        await Promise.race([database.close(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
        await silent.close();
      }
    },
  );
});
