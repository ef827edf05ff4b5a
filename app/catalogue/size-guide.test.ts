import { describe, expect, it } from "vitest";
import { RING_SIZES, ringSizeRow } from "./size-guide";

describe("the ring size guide", () => {
  it("lists sizes 3 to 12 with their halves", () => {
    expect(RING_SIZES.map((r) => r.size)).toEqual([
      "3",
      "3.5",
      "4",
      "4.5",
      "5",
      "5.5",
      "6",
      "6.5",
      "7",
      "7.5",
      "8",
      "8.5",
      "9",
      "9.5",
      "10",
      "10.5",
      "11",
      "11.5",
      "12",
    ]);
  });

  it("gives the scale's inside diameter and circumference in millimetres", () => {
    // Size 7 is 17.3 mm across and 54.4 mm around in every jeweller's chart.
    expect(ringSizeRow(7)).toEqual({ size: "7", diameterMm: "17.3", circumferenceMm: "54.4" });
    expect(ringSizeRow(5)).toEqual({ size: "5", diameterMm: "15.7", circumferenceMm: "49.3" });
    expect(ringSizeRow(10)).toMatchObject({ diameterMm: "19.8", circumferenceMm: "62.1" });
  });
});
