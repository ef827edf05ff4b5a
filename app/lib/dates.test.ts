import { describe, expect, it } from "vitest";
import { dateRangeText, openingText, shopDateTimeStamp, shopTimeToInstant, yearOf } from "./dates";

describe("drop dates in Spanish, on the shop's clock", () => {
  it("writes a range within one month, and within one year", () => {
    expect(dateRangeText(new Date("2026-11-12T18:00:00Z"), new Date("2026-11-18T18:00:00Z"))).toBe(
      "Del 12 al 18 de noviembre de 2026",
    );
    expect(dateRangeText(new Date("2026-10-28T18:00:00Z"), new Date("2026-11-03T18:00:00Z"))).toBe(
      "Del 28 de octubre al 3 de noviembre de 2026",
    );
  });

  it("names both years when the range crosses one, in Mexico City time", () => {
    // 2027-01-01 03:00 UTC is still 31 December 2026 in Mexico City.
    expect(yearOf(new Date("2027-01-01T03:00:00Z"))).toBe(2026);
    expect(dateRangeText(new Date("2026-12-20T18:00:00Z"), new Date("2027-01-05T18:00:00Z"))).toBe(
      "Del 20 de diciembre de 2026 al 5 de enero de 2027",
    );
  });

  it("names a one-day drop's day once, with its hours in Mexico City", () => {
    // 16:00 and 04:00 UTC the next day are both 30 November in Mexico City (10:00 and 22:00).
    expect(dateRangeText(new Date("2026-11-30T16:00:00Z"), new Date("2026-12-01T04:00:00Z"))).toBe(
      "30 de noviembre de 2026, de 10:00 a 22:00 h",
    );
    // The same date in UTC is two days in Mexico City: 30 November 23:00 to 1 December 01:00.
    expect(dateRangeText(new Date("2026-12-01T05:00:00Z"), new Date("2026-12-01T07:00:00Z"))).toBe(
      "Del 30 de noviembre al 1 de diciembre de 2026",
    );
  });
});

describe("when an upcoming drop opens", () => {
  const now = new Date("2026-11-24T00:00:00Z");
  it("names the weekday, day, month and time in Mexico City", () => {
    expect(openingText(new Date("2026-12-05T16:00:00Z"), now)).toBe(
      "Abre el sábado 5 de diciembre, 10:00 h (hora de la Ciudad de México)",
    );
    // 05:30 UTC on the 1st is still the evening of 30 November in Mexico City.
    expect(openingText(new Date("2026-12-01T05:30:00Z"), now)).toBe(
      "Abre el lunes 30 de noviembre, 23:30 h (hora de la Ciudad de México)",
    );
  });

  it("names the year only when it is not the current one", () => {
    expect(openingText(new Date("2027-01-02T06:05:00Z"), now)).toBe(
      "Abre el sábado 2 de enero de 2027, 00:05 h (hora de la Ciudad de México)",
    );
  });

  it("reads a typed date and time in Mexico City, to the second, and no impossible one", () => {
    expect(shopTimeToInstant("2026-11-27", "20:00:37")?.toISOString()).toBe("2026-11-28T02:00:37.000Z");
    expect(shopDateTimeStamp(new Date("2026-11-28T02:00:37Z"), { seconds: true })).toBe(
      "2026-11-27 20:00:37",
    );
    expect(shopDateTimeStamp(new Date("2026-11-28T02:00:37Z"))).toBe("2026-11-27 20:00");
    // A year of two digits (a typo for 2026) is no date, not 1926.
    expect(shopTimeToInstant("0026-11-01", "10:00")).toBeNull();
    // Nor a year the shop's dates never reach: "0226" is a typo for 2026, not the year 226.
    for (const date of ["0226-12-05", "0999-01-01", "1999-12-31", "2101-01-01", "9999-12-31"]) {
      expect(shopTimeToInstant(date, "10:00"), date).toBeNull();
    }
    expect(shopTimeToInstant("2000-01-01")?.toISOString()).toBe("2000-01-01T06:00:00.000Z");
    expect(shopTimeToInstant("2100-01-01")?.toISOString()).toBe("2100-01-01T06:00:00.000Z");
    expect(shopTimeToInstant("2026-02-30", "10:00")).toBeNull();
    expect(shopTimeToInstant("2026-11-27", "24:00")).toBeNull();
  });
});
