import { describe, expect, it } from "vitest";
import { dropsForHome } from "./storefront";

const now = new Date("2026-12-02T00:00:00Z");
const d = (id: string, status: "proximamente" | "activa" | "archivada", start: string, end: string) => ({
  id,
  status,
  startAt: new Date(start),
  endAt: new Date(end),
});

describe("dropsForHome", () => {
  it("hides archivada drops and lists the running one first", () => {
    const drops = [
      d("upcoming", "proximamente", "2026-12-10T00:00:00Z", "2026-12-12T00:00:00Z"),
      d("archived", "archivada", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
      d("ended", "activa", "2026-11-01T00:00:00Z", "2026-11-03T00:00:00Z"),
      d("running", "activa", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
    ];
    expect(dropsForHome(drops, now).map((x) => x.id)).toEqual(["running", "upcoming", "ended"]);
  });
});
