import type SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache";

/** A stand-in for better-sqlite3's handle that counts what it prepares. */
function countingHandle() {
  const prepared: string[] = [];
  const handle = {
    prepare: (text: string) => {
      prepared.push(text);
      return { text } as unknown as SQLite.Statement;
    },
    close: () => handle,
    transaction: (() => () => undefined) as unknown as SQLite.Database["transaction"],
  } as unknown as Pick<SQLite.Database, "prepare" | "close" | "transaction">;
  return { handle, prepared };
}

describe("the statement cache", () => {
  it("prepares each SQL text once, and lets the oldest go past 300", () => {
    const { handle, prepared } = countingHandle();
    const cache = withStatementCache(handle);
    const first = cache.prepare("select 1");
    expect(cache.prepare("select 1")).toBe(first);
    expect(prepared).toEqual(["select 1"]);
    for (let i = 0; i < 300; i++) cache.prepare(`select ${i + 2}`);
    cache.prepare("select 1");
    expect(prepared.filter((t) => t === "select 1")).toHaveLength(2);
  });

  it("a statement kept ahead is prepared then and never again, whatever runs meanwhile", () => {
    const { handle, prepared } = countingHandle();
    const cache = withStatementCache(handle);
    cache.keep("insert lugar");
    expect(prepared).toEqual(["insert lugar"]);
    const kept = cache.prepare("insert lugar");
    // Weeks of other queries before the opening.
    for (let i = 0; i < 1_000; i++) cache.prepare(`select ${i}`);
    expect(cache.prepare("insert lugar")).toBe(kept);
    cache.keep("insert lugar");
    expect(prepared.filter((t) => t === "insert lugar")).toHaveLength(1);
  });
});
