import { describe, expect, it } from "vitest";
import { addBusinessDays, isBusinessDay, returnWindowEnd } from "./return-window.server";

describe("business days in Mexico", () => {
  it("skips weekends and the law's holidays", () => {
    expect(isBusinessDay("2026-11-13")).toBe(true); // a Friday
    expect(isBusinessDay("2026-11-14")).toBe(false); // Saturday
    expect(isBusinessDay("2026-11-16")).toBe(false); // Día de la Revolución (third Monday)
    expect(isBusinessDay("2026-12-25")).toBe(false);
    expect(isBusinessDay("2026-04-02")).toBe(false); // Holy Thursday: offices closed
  });

  it("counts five business days across a holiday week", () => {
    // Delivered Friday 13 Nov 2026: Mon 16 is a holiday, so the fifth business day is Mon 23.
    expect(addBusinessDays("2026-11-13", 5)).toBe("2026-11-23");
    // Holy week 2026: delivered Tue 31 Mar; Wed 1, then Thu 2 and Fri 3 Apr closed → Thu 9 Apr.
    expect(addBusinessDays("2026-03-31", 5)).toBe("2026-04-09");
    // Christmas and New Year: delivered Wed 23 Dec 2026 → 24, 28, 29, 30, 31 Dec.
    expect(addBusinessDays("2026-12-23", 5)).toBe("2026-12-31");
    // An ordinary week: delivered Monday → the next Monday.
    expect(addBusinessDays("2026-11-23", 5)).toBe("2026-11-30");
  });

  it("the window ends at 23:59:59 Mexico City time of its fifth business day", () => {
    // Delivered Friday 13 Nov 2026 at 18:00 in Mexico City (00:00 UTC on the 14th).
    expect(returnWindowEnd(new Date("2026-11-14T00:00:00Z")).toISOString()).toBe("2026-11-24T05:59:59.000Z");
  });
});
