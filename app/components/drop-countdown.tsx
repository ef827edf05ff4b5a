import { useEffect, useState } from "react";
import { Link } from "react-router";
import { countdownTo } from "~/catalogue/drop-time";

const two = (n: number) => String(n).padStart(2, "0");

/**
 * The floating countdown to the end of the running drop, refreshed every second. The server
 * renders it at its own clock; the browser takes over after hydration.
 */
export function DropCountdown({
  drop,
  serverNow,
}: {
  drop: { name: string; endsAt: string; href: string };
  serverNow: string;
}) {
  const [now, setNow] = useState(() => new Date(serverNow));
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = countdownTo(new Date(drop.endsAt), now);
  const parts = [
    ...(left.days > 0 ? [{ value: String(left.days), unit: left.days === 1 ? "día" : "días" }] : []),
    { value: two(left.hours), unit: "horas" },
    { value: two(left.minutes), unit: "min" },
    { value: two(left.seconds), unit: "seg" },
  ];
  return (
    <Link
      to={drop.href}
      className="fixed bottom-4 right-4 z-20 rounded-2xl bg-ink/95 px-4 py-3 text-cream shadow-lg hover:bg-ink"
      aria-label={`${drop.name}: termina en ${parts.map((p) => `${Number(p.value)} ${p.unit}`).join(", ")}`}
    >
      <span className="block text-xs uppercase tracking-widest text-gold-300">{drop.name} · termina en</span>
      <span
        className="mt-1 flex gap-3 font-mono text-lg tabular-nums"
        aria-hidden="true"
        data-testid="countdown"
      >
        {parts.map((p) => (
          <span key={p.unit} className="flex flex-col items-center leading-none">
            {p.value}
            <span className="mt-1 font-sans text-[10px] uppercase text-cream/80">{p.unit}</span>
          </span>
        ))}
      </span>
    </Link>
  );
}

export function WhatsAppButton({ number }: { number: string }) {
  return (
    <a
      href={`https://wa.me/${number}`}
      className="fixed bottom-4 right-4 z-20 flex items-center gap-2 rounded-full bg-[#1f7a4d] px-4 py-3 font-medium text-white shadow-lg"
      rel="noopener"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d="M4 20l1.3-4A8 8 0 1 1 8 18.7L4 20Z" />
      </svg>
      Escríbenos por WhatsApp
    </a>
  );
}
