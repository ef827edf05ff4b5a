/*
 * The browser's estimate of the server's clock, as an offset to add to its own Date.now(). The
 * drop opens and closes on the server's clock (checkout judges by it), so a shopper whose phone
 * is minutes off must still see the page flip at the server's instant.
 */

/**
 * The offset from one round trip to the time endpoint: the server read its clock somewhere
 * between sending and receiving, so the middle of the trip is the best guess (error at most half
 * the round trip).
 */
export function offsetFromSample(sentAt: number, serverNow: number, receivedAt: number): number {
  return Math.round(serverNow - (sentAt + receivedAt) / 2);
}

/**
 * How far a page's render time may lag the moment the browser reads it when both clocks agree:
 * the shared page cache (1 s), a CDN in front of it (1 s more), and the trip itself.
 */
export const PAGE_AGE_ALLOWANCE_MS = 3_000;

/**
 * A first guess from the page alone, used until the time endpoint answers (or when it cannot be
 * reached). A cached page is up to a few seconds old, so a gap within that allowance says nothing
 * about the browser's clock and is taken as zero; a larger one means the clock is wrong.
 */
export function roughOffset(renderedAt: number, clientNow: number): number {
  const gap = renderedAt - clientNow;
  return Math.abs(gap) <= PAGE_AGE_ALLOWANCE_MS ? 0 : gap;
}

/** Milliseconds from `now` to the next whole second of the same clock (1..1000). */
export function msToNextSecond(now: number): number {
  return 1000 - (((now % 1000) + 1000) % 1000);
}

/** The first of `instants` after `now`, or null when none is left. */
export function nextInstant(instants: number[], now: number): number | null {
  let next: number | null = null;
  for (const i of instants) if (i > now && (next === null || i < next)) next = i;
  return next;
}
