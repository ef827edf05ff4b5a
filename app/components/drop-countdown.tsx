import { Link } from "react-router";
import { countdownText, countdownTo, salesEndAt } from "~/catalogue/drop-time";
import { useShopSeconds } from "./shop-clock";

const two = (n: number) => String(n).padStart(2, "0");

/**
 * The running drop's countdown. On phones, a slim bar stuck to the bottom of the screen that keeps
 * its own place at the end of the page (sticky, part of the flow), so it never sits over the last
 * content, and scrolling into view keeps clear of it (scroll-padding in app.css). From `lg` up it
 * docks in the flow at the top of the page instead (app.css), covering nothing. It counts to
 * the instant sales stop on the server's clock and is gone once that instant is reached. It is a
 * landmark of its own (a named region), so no content of the page lies outside the landmarks.
 */
export function DropBar({
  drop,
  renderedAt,
}: {
  drop: { name: string; endsAt: string; href: string };
  renderedAt: string;
}) {
  const now = useShopSeconds(renderedAt);
  const left = countdownTo(salesEndAt({ startAt: new Date(0), endAt: new Date(drop.endsAt) }), new Date(now));
  if (left.done) return null;
  const parts = [
    ...(left.days > 0 ? [{ value: String(left.days), unit: left.days === 1 ? "día" : "días" }] : []),
    { value: two(left.hours), unit: "horas" },
    { value: two(left.minutes), unit: "min" },
    { value: two(left.seconds), unit: "seg" },
  ];
  return (
    <section
      data-drop-bar
      aria-label="Colección en curso"
      className="sticky bottom-0 z-20 mx-auto mt-8 max-w-6xl print:hidden sm:px-4"
    >
      <Link
        to={drop.href}
        className="flex items-center justify-between gap-3 bg-ink/95 px-4 py-2 text-cream shadow-lg hover:bg-ink sm:rounded-t-2xl lg:rounded-2xl lg:shadow-none"
        aria-label={`${drop.name}: termina en ${parts.map((p) => `${p.value} ${p.unit}`).join(", ")}`}
      >
        {/* The name comes first in the markup (the label above it is drawn first), words are
            spaced, and the link's name spells the figures as shown: the name holds the visible
            words in their order. */}
        <span className="flex min-w-0 flex-col-reverse">
          <span className="block truncate text-sm">{drop.name}</span>{" "}
          <span className="block text-[11px] uppercase tracking-widest text-gold-300">Termina en</span>
        </span>
        <span
          className="flex shrink-0 gap-2.5 font-mono text-lg tabular-nums"
          aria-hidden="true"
          data-testid="countdown"
        >
          {parts.map((p) => (
            <span key={p.unit} className="flex flex-col items-center leading-none">
              {p.value} <span className="mt-0.5 font-sans text-[10px] uppercase text-cream/80">{p.unit}</span>
            </span>
          ))}
        </span>
      </Link>
    </section>
  );
}

/**
 * When an upcoming drop opens, on the shop's clock, and the time left until then (server's
 * clock). The date text comes from the server, so no date formatting ships to the browser.
 */
export function OpeningNotice({
  drop,
  renderedAt,
  className = "",
}: {
  drop: { startsAt: string; opensText: string };
  renderedAt: string;
  className?: string;
}) {
  const now = useShopSeconds(renderedAt);
  const left = countdownTo(new Date(drop.startsAt), new Date(now));
  return (
    <div className={`rounded-lg border border-gold-500/40 bg-cream px-4 py-3 ${className}`}>
      <p className="font-medium">{drop.opensText}</p>
      <p className="mt-1 text-sm text-ink/80">
        Abre en{" "}
        <span className="font-mono tabular-nums" data-testid="opening-countdown">
          {countdownText(left)}
        </span>
      </p>
    </div>
  );
}
