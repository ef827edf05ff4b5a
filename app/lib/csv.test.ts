import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

describe("CSV for spreadsheets", () => {
  it("starts with a byte-order mark, quotes every cell and ends each row with CRLF", () => {
    expect(
      toCsv([
        ["Pedido", "Cliente"],
        ["OL-1", "Ana Pérez"],
      ]),
    ).toBe('\uFEFF"Pedido","Cliente"\r\n"OL-1","Ana Pérez"\r\n');
  });

  it("doubles quotes and keeps commas and line breaks inside their cell", () => {
    expect(toCsv([['Anillo "Luna", oro', "Calle 5\nInterior 2", null]])).toBe(
      '\uFEFF"Anillo ""Luna"", oro","Calle 5\nInterior 2",""\r\n',
    );
  });

  it("a cell a spreadsheet would run as a formula is shown as text", () => {
    const csv = toCsv([
      ['=HYPERLINK("http://malo.example","clic")', "+52 951 000", "-1+1", "@SUM(A1)", "\t=1", "\r=1"],
    ]);
    expect(csv).toBe(
      '\uFEFF"\'=HYPERLINK(""http://malo.example"",""clic"")","\'+52 951 000","\'-1+1","\'@SUM(A1)","\'\t=1","\'\r=1"\r\n',
    );
  });

  it("numbers are written as they are, negative ones included, and text elsewhere is untouched", () => {
    expect(toCsv([[12500, -3, 0, "12500.00", "Ana = Luna", "a-b"]])).toBe(
      '\uFEFF"12500","-3","0","12500.00","Ana = Luna","a-b"\r\n',
    );
  });
});
