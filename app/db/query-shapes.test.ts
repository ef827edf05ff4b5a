import { CompiledQuery } from "kysely";
import { describe, expect, it } from "vitest";
import { MOST_ROWS, powerOfTwoRuns, queryShape, slot } from "./query-shapes";

describe("queryShape", () => {
  it("fills each stand-in with its row's value and keeps the fixed values and the SQL", () => {
    const compiled = CompiledQuery.raw("insert into t (a, b, c) values (?, ?, ?), (?, ?, ?)", [
      slot(0, "a"),
      "fijo",
      slot(0, "c:d"),
      slot(1, "a"),
      "fijo",
      slot(1, "c:d"),
    ]);
    const shape = queryShape(compiled);
    const filled = shape.fill([
      { a: 1, "c:d": "x" },
      { a: 2, "c:d": null },
    ]);
    expect(filled.sql).toBe(compiled.sql);
    expect(filled.parameters).toEqual([1, "fijo", "x", 2, "fijo", null]);
    // The shape is reused: other rows, same SQL.
    expect(shape.fill([{ a: 3 }, { a: 4 }]).parameters).toEqual([3, "fijo", undefined, 4, "fijo", undefined]);
  });

  it("splits a batch in runs of a few sizes, largest first, a full batch in one", () => {
    const sizes = (n: number) => powerOfTwoRuns(Array.from({ length: n }, (_, i) => i)).map((r) => r.length);
    expect(sizes(0)).toEqual([]);
    expect(sizes(1)).toEqual([1]);
    expect(sizes(200)).toEqual([128, 64, 8]);
    expect(sizes(MOST_ROWS)).toEqual([MOST_ROWS]);
    expect(sizes(MOST_ROWS + 3)).toEqual([MOST_ROWS, 2, 1]);
    expect(powerOfTwoRuns(["a", "b", "c"]).flat()).toEqual(["a", "b", "c"]);
  });
});
