import { describe, expect, it } from "vitest";
import { isCardOnly, voucherDeadline, voucherDeadlineText, voucherOffer } from "./vouchers";

const on = { oxxo: true, spei: true, days: 2 as const };
const opened = (hoursAgo: number, cardOnlyHours = 2, openingMinutes = 60) => ({
  startAt: new Date(Date.parse("2026-11-26T18:00:00Z") - hoursAgo * 3_600_000),
  cardOnlyHours,
  lotterySeconds: 10,
  openingMinutes,
});
const now = new Date("2026-11-26T18:00:00Z");

describe("voucherOffer", () => {
  it("offers nothing but cards while the owner has not turned vouchers on", () => {
    expect(
      voucherOffer({ oxxo: false, spei: false, days: 2 }, { totalCents: 500_000, drops: [] }, now),
    ).toBeNull();
  });

  it("offers nothing but cards during a drop's 'solo tarjeta' hours, both after them", () => {
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(1.9)] }, now)).toBeNull();
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(2)] }, now)).toEqual(on);
    // One drop of the cart still in its hours is enough.
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(30), opened(0.5)] }, now)).toBeNull();
    // An owner who sets 0 hours offers them once the opening is over (a drop without one: from the start).
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(0.5, 0)] }, now)).toBeNull();
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(1, 0)] }, now)).toEqual(on);
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(0.01, 0, 0)] }, now)).toEqual(on);
  });

  it("offers nothing but cards for a drop's whole opening when it outlasts the 'solo tarjeta' hours", () => {
    // A three-hour opening with two hours of cards only: a voucher in the third hour could not
    // hold its piece (the opening's short holds), so none is offered until the opening ends.
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(2.5, 2, 180)] }, now)).toBeNull();
    expect(voucherOffer(on, { totalCents: 500_000, drops: [opened(3, 2, 180)] }, now)).toEqual(on);
  });

  it("offers OXXO only from $10 to $10,000; SPEI above that", () => {
    expect(voucherOffer(on, { totalCents: 1_000_000, drops: [] }, now)).toEqual(on);
    expect(voucherOffer(on, { totalCents: 1_000_001, drops: [] }, now)).toEqual({ ...on, oxxo: false });
    expect(voucherOffer({ ...on, spei: false }, { totalCents: 1_500_000, drops: [] }, now)).toBeNull();
    expect(voucherOffer(on, { totalCents: 999, drops: [] }, now)).toEqual({ ...on, oxxo: false });
  });
});

describe("isCardOnly", () => {
  it("is true from before the start until its hours have passed", () => {
    expect(isCardOnly(opened(-5), now)).toBe(true);
    expect(isCardOnly(opened(1.99), now)).toBe(true);
    expect(isCardOnly(opened(2.01), now)).toBe(false);
  });
});

describe("voucherDeadline", () => {
  it("ends at 23:59:59 Mexico City time, the given days later", () => {
    // Thursday 12:00 in Mexico City: payable until Friday 23:59:59 (−06:00).
    expect(voucherDeadline(new Date("2026-11-26T18:00:00Z"), 1).toISOString()).toBe(
      "2026-11-28T05:59:59.000Z",
    );
    // 23:30 on Thursday in Mexico City is already Friday in UTC: still counted from Thursday.
    expect(voucherDeadline(new Date("2026-11-27T05:30:00Z"), 2).toISOString()).toBe(
      "2026-11-29T05:59:59.000Z",
    );
    // Across a month's end.
    expect(voucherDeadline(new Date("2026-11-30T18:00:00Z"), 3).toISOString()).toBe(
      "2026-12-04T05:59:59.000Z",
    );
  });
});

describe("voucherDeadlineText", () => {
  it("says the day and time in Mexico City", () => {
    expect(voucherDeadlineText(new Date("2026-11-28T05:59:59.000Z"))).toBe(
      "viernes, 27 de noviembre a las 23:59 (hora del centro de México)",
    );
  });
});
