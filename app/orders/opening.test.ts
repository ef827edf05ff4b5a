import { describe, expect, it } from "vitest";
import {
  arrivalPlace,
  holdMinutesAt,
  inLottery,
  inOpening,
  lotteryEndsAt,
  lotteryPlace,
  OPENING_DEFAULTS,
  placeFor,
} from "./opening";

const start = new Date("2026-12-01T18:00:00.000Z");
const rules = { startAt: start, ...OPENING_DEFAULTS };
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe("a drop's opening", () => {
  it("draws by lot from 5 seconds before the start until the drop's lottery seconds after it", () => {
    expect(inLottery(rules, at(-5.001))).toBe(false);
    expect(inLottery(rules, at(-5))).toBe(true);
    expect(inLottery(rules, at(9.999))).toBe(true);
    expect(inLottery(rules, at(10))).toBe(false);
    expect(lotteryEndsAt(rules)).toEqual(at(10));
    expect(inLottery({ ...rules, lotterySeconds: 0 }, at(0))).toBe(false);
  });

  it("keeps its rules for the drop's opening minutes, never shorter than its lottery", () => {
    expect(inOpening(rules, at(-6))).toBe(false);
    expect(inOpening(rules, at(59 * 60))).toBe(true);
    expect(inOpening(rules, at(60 * 60))).toBe(false);
    expect(inOpening({ ...rules, openingMinutes: 0 }, at(5))).toBe(true);
    expect(inOpening({ ...rules, openingMinutes: 0 }, at(10))).toBe(false);
  });

  it("holds for the opening's minutes during it (never longer than the drop's own hold), the drop's after", () => {
    expect(holdMinutesAt({ ...rules, holdMinutes: 30 }, at(60))).toBe(10);
    expect(holdMinutesAt({ ...rules, holdMinutes: 8 }, at(60))).toBe(8);
    expect(holdMinutesAt({ ...rules, holdMinutes: 30 }, at(2 * 3600))).toBe(30);
  });

  it("places the lottery's before every arrival after it, and arrivals in their order", () => {
    const drawn = [0, 0.5, 0.999999].map((r) => lotteryPlace(() => r));
    const late = [arrivalPlace(at(11), 1), arrivalPlace(at(11), 2), arrivalPlace(at(12), 0)];
    const all = [...late, ...drawn].sort();
    expect(all).toEqual([...drawn, ...late]);
    for (const place of all) expect(place).toMatch(/^[01]\d{16}$/);
    expect(placeFor(rules, at(3), () => 0.25).startsWith("0")).toBe(true);
    expect(placeFor(rules, at(30), () => 0.25).startsWith("1")).toBe(true);
  });
});
