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

  it("rests on 1 October, not 1 December, when the federal executive changes (2024, 2030, …)", () => {
    // LFT art. 74 fr. VIII since the 2024 reform; the library still gives 1 December.
    expect(isBusinessDay("2024-10-01")).toBe(false); // a Tuesday
    expect(addBusinessDays("2024-09-30", 1)).toBe("2024-10-02");
    expect(addBusinessDays("2030-09-30", 1)).toBe("2030-10-02"); // Tue 1 Oct 2030 closed
    expect(isBusinessDay("2036-10-01")).toBe(false); // a Wednesday
    // 1 December of those years is an ordinary day: Monday 1 Dec 2036 counts.
    expect(isBusinessDay("2036-12-01")).toBe(true);
    expect(addBusinessDays("2036-11-28", 1)).toBe("2036-12-01");
    expect(isBusinessDay("2042-12-01")).toBe(true); // a Monday too
    // Other years keep 1 October as a working day.
    expect(isBusinessDay("2026-10-01")).toBe(true); // a Thursday
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
