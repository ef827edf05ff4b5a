import { useEffect, useRef } from "react";
import type { SeriesPoint } from "~/reports/report";

const HEIGHT = 240;
/** At most this many dates under the chart: a month's 31 days would not fit on a phone. */
const MAX_TICKS = 7;

const pesosShort = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  currencyDisplay: "narrowSymbol",
  notation: "compact",
  maximumFractionDigits: 1,
});

/**
 * Net sales over time, drawn by uPlot on a canvas. uPlot is loaded here, in the browser, only when
 * a report is open, so no public page carries it; the table under the chart (the route's) is the
 * accessible form of the same numbers, and the drawing is hidden from screen readers.
 */
export function SalesChart({ points, unit }: { points: SeriesPoint[]; unit: "day" | "month" }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || points.length === 0) return;
    let cancelled = false;
    let plot: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined;
    const resize = () => plot?.setSize({ width: element.clientWidth, height: HEIGHT });
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      // One slot per day or month, evenly spaced (months differ in length; bars should not).
      const xs = points.map((_, i) => i);
      const every = Math.ceil(xs.length / MAX_TICKS);
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false, range: [-0.5, xs.length - 0.5] } },
          axes: [
            {
              splits: () => xs.filter((_, i) => i % every === 0),
              values: (_, splits) => splits.map((x) => points[x]?.label ?? ""),
              // Month names are long: fewer of them fit, so they get the room of two.
              size: unit === "month" ? 40 : 30,
            },
            { values: (_, splits) => splits.map((v) => pesosShort.format(v)), size: 64 },
          ],
          series: [
            {},
            {
              label: "Ventas netas",
              stroke: "#8a6a1f",
              fill: "rgba(201, 162, 39, 0.55)",
              paths: UPlot.paths.bars?.({ size: [0.7, 48] }),
              points: { show: false },
            },
          ],
        },
        [xs, points.map((p) => p.netCents / 100)],
        element,
      );
      window.addEventListener("resize", resize);
    });
    return () => {
      cancelled = true;
      window.removeEventListener("resize", resize);
      plot?.destroy();
    };
  }, [points, unit]);
  return <div ref={box} aria-hidden="true" data-testid="sales-chart" className="min-h-60 w-full" />;
}
