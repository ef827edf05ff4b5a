import { describe, expect, it } from "vitest";
import {
  countdownTo,
  currentRunningDrop,
  DROP_TIME_LABELS,
  dropTimeState,
  isDropPurchasable,
} from "./drop-time";

const startAt = new Date("2026-12-01T18:00:00.000Z");
const endAt = new Date("2026-12-03T18:00:00.000Z");
const drop = { startAt, endAt };
const at = (iso: string) => new Date(iso);

describe("dropTimeState", () => {
  it("is pending until the start, running from start to end inclusive, ended after", () => {
    expect(dropTimeState(drop, at("2026-12-01T17:59:59.999Z"))).toBe("pending");
    expect(dropTimeState(drop, startAt)).toBe("running");
    expect(dropTimeState(drop, at("2026-12-02T10:00:00.000Z"))).toBe("running");
    expect(dropTimeState(drop, endAt)).toBe("running");
    // The end is to the second: its whole last second is still running.
    expect(dropTimeState(drop, at("2026-12-03T18:00:00.999Z"))).toBe("running");
    expect(dropTimeState(drop, at("2026-12-03T18:00:01.000Z"))).toBe("ended");
  });

  it("uses the spec's labels", () => {
    expect(DROP_TIME_LABELS).toEqual({ pending: "Próximamente", running: "Activo", ended: "Finalizado" });
  });
});

describe("isDropPurchasable", () => {
  it("needs running dates and a status other than archivada", () => {
    const now = at("2026-12-02T00:00:00Z");
    expect(isDropPurchasable({ ...drop, status: "activa" }, now)).toBe(true);
    expect(isDropPurchasable({ ...drop, status: "proximamente" }, now)).toBe(true);
    expect(isDropPurchasable({ ...drop, status: "archivada" }, now)).toBe(false);
    expect(isDropPurchasable({ ...drop, status: "activa" }, at("2026-12-04T00:00:00Z"))).toBe(false);
    expect(isDropPurchasable({ ...drop, status: "activa" }, at("2026-11-30T00:00:00Z"))).toBe(false);
  });
});

describe("currentRunningDrop", () => {
  it("picks the purchasable drop that ends first, or null", () => {
    const now = at("2026-12-02T00:00:00Z");
    const late = { id: "late", startAt, endAt: at("2026-12-10T00:00:00Z"), status: "activa" as const };
    const soon = { id: "soon", startAt, endAt, status: "activa" as const };
    const archived = { id: "arch", startAt, endAt: at("2026-12-02T01:00:00Z"), status: "archivada" as const };
    expect(currentRunningDrop([late, archived, soon], now)?.id).toBe("soon");
    expect(currentRunningDrop([archived], now)).toBeNull();
  });
});

describe("countdownTo", () => {
  it("shows whole days once a day or more remains, hours below 24", () => {
    const now = at("2026-12-01T00:00:00Z");
    expect(countdownTo(at("2026-12-03T05:04:03Z"), now)).toEqual({
      days: 2,
      hours: 5,
      minutes: 4,
      seconds: 3,
      done: false,
    });
  });

  it("does not hide days past 24 hours", () => {
    const now = at("2026-12-01T00:00:00Z");
    const c = countdownTo(at("2026-12-02T01:00:00Z"), now);
    expect(c.days).toBe(1);
    expect(c.hours).toBe(1);
  });

  it("stops at zero when the target has passed", () => {
    const now = at("2026-12-01T00:00:10Z");
    expect(countdownTo(at("2026-12-01T00:00:00Z"), now)).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
      done: true,
    });
  });
});
