import { useEffect, useRef } from "react";
import type uPlot from "uplot";

const HEIGHT = 200;

export interface OpeningPoint {
  /** When it was read (ms since the epoch). */
  at: number;
  started: number;
  refused: number;
  paid: number;
}

/** A second on the chart's axis, as the shop's clock shows it (Mexico City). */
const clockFormat = new Intl.DateTimeFormat("es-MX", {
  timeZone: "America/Mexico_City",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const clock = (seconds: number) => clockFormat.format(new Date(seconds * 1000));

const dataOf = (points: OpeningPoint[]): uPlot.AlignedData => [
  points.map((p) => p.at / 1000),
  points.map((p) => p.started),
  points.map((p) => p.refused),
  points.map((p) => p.paid),
];

/**
 * Checkouts started, refused and paid per second over the last minute, drawn by uPlot (loaded in
 * the browser only when the live page is open, like the reports' chart). The table beside it on
 * the page is the accessible form of the same numbers; the drawing is hidden from screen readers.
 */
export function OpeningChart({ points }: { points: OpeningPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const latest = useRef(points);
  latest.current = points;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let cancelled = false;
    const resize = () => plot.current?.setSize({ width: element.clientWidth, height: HEIGHT });
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      plot.current = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          cursor: { show: false },
          legend: { live: false },
          scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          axes: [{ values: (_u, splits) => splits.map(clock) }, { size: 48 }],
          series: [
            { label: "Hora" },
            { label: "Iniciados/s", stroke: "#8a6a1f", width: 2, points: { show: false } },
            { label: "Rechazados/s", stroke: "#9b2c2c", width: 2, points: { show: false } },
            { label: "Pagados/s", stroke: "#2f6b4f", width: 2, points: { show: false } },
          ],
        },
        dataOf(latest.current),
        element,
      );
      window.addEventListener("resize", resize);
    });
    return () => {
      cancelled = true;
      window.removeEventListener("resize", resize);
      plot.current?.destroy();
      plot.current = undefined;
    };
  }, []);

  useEffect(() => {
    plot.current?.setData(dataOf(points));
  }, [points]);

  return <div ref={box} aria-hidden="true" data-testid="opening-chart" className="mt-3 min-h-52 w-full" />;
}
