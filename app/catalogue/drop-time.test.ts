import { describe, expect, it } from "vitest";
import {
  changeInstants,
  countdownText,
  countdownTo,
  currentRunningDrop,
  DROP_TIME_LABELS,
  dropTimeState,
  isDropPurchasable,
  nextChangeAt,
  salesEndAt,
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

describe("the instants a drop's pages change", () => {
  it("stops selling at the end of the end's second", () => {
    expect(salesEndAt(drop).toISOString()).toBe("2026-12-03T18:00:01.000Z");
    // An end with a fraction of a second still sells to the end of that second.
    expect(salesEndAt({ startAt, endAt: at("2026-12-03T18:00:00.400Z") }).toISOString()).toBe(
      "2026-12-03T18:00:01.000Z",
    );
  });

  it("is the start while pending, the end of sales while running, none once ended", () => {
    expect(nextChangeAt(drop, at("2026-11-30T00:00:00Z"))).toEqual(startAt);
    expect(nextChangeAt(drop, at("2026-12-01T17:59:59.999Z"))).toEqual(startAt);
    expect(nextChangeAt(drop, startAt)?.toISOString()).toBe("2026-12-03T18:00:01.000Z");
    expect(nextChangeAt(drop, at("2026-12-03T18:00:00.999Z"))?.toISOString()).toBe(
      "2026-12-03T18:00:01.000Z",
    );
    expect(nextChangeAt(drop, at("2026-12-03T18:00:01.000Z"))).toBeNull();
  });

  it("gives each drop its own next change", () => {
    const later = { startAt: at("2026-12-02T10:00:00Z"), endAt: at("2026-12-09T10:00:00Z") };
    expect(nextChangeAt(later, at("2026-12-01T20:00:00Z"))?.toISOString()).toBe("2026-12-02T10:00:00.000Z");
    expect(nextChangeAt(drop, at("2026-12-10T00:00:00Z"))).toBeNull();
  });

  it("lists every opening and end of sales, from the dates pages carry", () => {
    expect(
      changeInstants([{ startsAt: startAt.toISOString(), endsAt: endAt.toISOString(), archived: false }]),
    ).toEqual([startAt.getTime(), endAt.getTime() + 1000]);
  });
});

describe("countdown to the second", () => {
  it("counts a part of a second as a second, so 00:00:00 shows only at the instant", () => {
    const target = at("2026-12-01T00:00:10.000Z");
    expect(countdownTo(target, at("2026-12-01T00:00:09.001Z"))).toMatchObject({ seconds: 1, done: false });
    expect(countdownTo(target, at("2026-12-01T00:00:09.999Z"))).toMatchObject({ seconds: 1, done: false });
    expect(countdownTo(target, target)).toMatchObject({ seconds: 0, done: true });
  });

  it("reads as one line of text, days only when there are some", () => {
    expect(countdownText(countdownTo(at("2026-12-03T05:04:03Z"), at("2026-12-01T00:00:00Z")))).toBe(
      "2 días 05 h 04 min 03 s",
    );
    expect(countdownText(countdownTo(at("2026-12-02T00:00:00Z"), at("2026-12-01T00:00:00Z")))).toBe(
      "1 día 00 h 00 min 00 s",
    );
    expect(countdownText(countdownTo(at("2026-12-01T00:00:07Z"), at("2026-12-01T00:00:00Z")))).toBe(
      "00 h 00 min 07 s",
    );
  });
});
