import { expect } from "vitest";

/** The cells of a CSV whose every cell is quoted (as toCsv writes it). */
export function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  const cell = /"((?:[^"]|"")*)"(,|\r\n)/gy;
  let m = cell.exec(csv);
  for (; m; m = cell.exec(csv)) {
    row.push((m[1] ?? "").replace(/""/g, '"'));
    if (m[2] === "\r\n") {
      rows.push(row);
      row = [];
    }
  }
  expect(cell.lastIndex === 0 || row.length === 0, "CSV ends with a whole row").toBe(true);
  return rows;
}
