import { describe, expect, it } from "vitest";
import { formatMXN } from "./money";

describe("formatMXN", () => {
  it("shows pesos with $, thousands separators and two decimals", () => {
    expect(formatMXN(1_250_000)).toBe("$12,500.00");
    expect(formatMXN(0)).toBe("$0.00");
    expect(formatMXN(5)).toBe("$0.05");
    expect(formatMXN(123_456_789)).toBe("$1,234,567.89");
  });

  it("refuses fractional centavos instead of rounding money silently", () => {
    expect(() => formatMXN(10.5)).toThrow(RangeError);
  });
});
