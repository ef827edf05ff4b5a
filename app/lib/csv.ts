/**
 * CSV as spreadsheet programs open it: UTF-8 with a byte-order mark (so Excel reads accents),
 * CRLF line ends, every cell quoted. A cell that a spreadsheet would run as a formula (it starts
 * with =, +, - or @) is prefixed with an apostrophe.
 */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? "" : String(value);
    const safe = /^[=+\-@\t\r]/.test(text) && typeof value !== "number" ? `'${text}` : text;
    return `"${safe.replace(/"/g, '""')}"`;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}
