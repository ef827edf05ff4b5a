import { useCallback, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { msToNextSecond, nextInstant, offsetFromSample, roughOffset } from "~/lib/server-clock";

/*
 * The server's clock in the browser (decision 17). One request to the uncached /api/hora per page
 * load gives the offset; until it answers, the page's render time gives a rough one. Pages then
 * flip at the server's instants whatever the phone's clock says.
 */

let offset: number | null = null;
let measured = false;
let lastSync = 0;
let syncing: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** A sleeping phone or a changed clock is measured again when the page comes back. */
const RESYNC_AFTER_MS = 60_000;
/** Timers are re-armed at least this often, so a sleep or clock change cannot push a flip back. */
const MAX_TIMER_MS = 30_000;
/** After a flip the page's data is read again once the 1 s page cache holds only later renders. */
const REVALIDATE_AFTER_MS = 1_100;
/** Spread over a second, so a crowd does not ask at the same millisecond. */
const REVALIDATE_SPREAD_MS = 900;

/** The server's time now, as best known (milliseconds since the epoch). */
export function shopNow(): number {
  return Date.now() + (offset ?? 0);
}

function sync(): void {
  if (syncing) return;
  const sentAt = Date.now();
  syncing = fetch("/api/hora", { cache: "no-store", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((body: { ahora?: unknown }) => {
      if (typeof body.ahora !== "number") return;
      offset = offsetFromSample(sentAt, body.ahora, Date.now());
      measured = true;
      lastSync = Date.now();
      for (const listener of listeners) listener();
    })
    // Without an answer the rough offset stands; the next visit to the page tries again.
    .catch(() => {})
    .finally(() => {
      syncing = null;
    });
}

/** Starts (or refreshes) the measurement; `renderedAt` gives the first guess. */
function useSync(renderedAt: string, onChange: () => void): void {
  useEffect(() => {
    if (offset === null) offset = roughOffset(Date.parse(renderedAt), Date.now());
    listeners.add(onChange);
    if (!measured || Date.now() - lastSync > RESYNC_AFTER_MS) sync();
    const onVisible = () => {
      if (document.visibilityState !== "visible") return;
      if (Date.now() - lastSync > RESYNC_AFTER_MS) sync();
      onChange();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      listeners.delete(onChange);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [renderedAt, onChange]);
}

/**
 * The server's time, re-read at each of `instants` (drops opening or closing), so a page
 * re-renders exactly when something on it changes and not every second. The first render uses
 * `renderedAt`, as the server did, so hydration matches. After a flip the route's data is read
 * again, so stock and the server's own view follow.
 */
export function useShopClock(renderedAt: string, instants: number[]): number {
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const runRef = useRef(() => {});
  const onChange = useCallback(() => runRef.current(), []);
  useSync(renderedAt, onChange);
  const key = instants.join(",");

  useEffect(() => {
    const list = key ? key.split(",").map(Number) : [];
    let timer = 0;
    let revalidateTimer = 0;
    let last = shopNow();
    const run = () => {
      window.clearTimeout(timer);
      const t = shopNow();
      const passed = nextInstant(list, last);
      if (passed !== null && t >= passed && revalidateTimer === 0) {
        revalidateTimer = window.setTimeout(
          () => {
            revalidateTimer = 0;
            void revalidateRef.current();
          },
          REVALIDATE_AFTER_MS + Math.random() * REVALIDATE_SPREAD_MS,
        );
      }
      last = t;
      setNow(t);
      const next = nextInstant(list, t);
      if (next !== null) timer = window.setTimeout(run, Math.min(next - t, MAX_TIMER_MS));
    };
    runRef.current = run;
    run();
    return () => {
      window.clearTimeout(timer);
      window.clearTimeout(revalidateTimer);
      runRef.current = () => {};
    };
  }, [key]);
  return now;
}

/** The server's time, re-read at every whole second of the server's clock: for countdowns. */
export function useShopSeconds(renderedAt: string): number {
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  const runRef = useRef(() => {});
  const onChange = useCallback(() => runRef.current(), []);
  useSync(renderedAt, onChange);
  useEffect(() => {
    let timer = 0;
    const run = () => {
      window.clearTimeout(timer);
      const t = shopNow();
      setNow(t);
      timer = window.setTimeout(run, msToNextSecond(t));
    };
    runRef.current = run;
    run();
    return () => {
      window.clearTimeout(timer);
      runRef.current = () => {};
    };
  }, []);
  return now;
}
