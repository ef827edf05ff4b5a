import { useEffect, useState } from "react";
import { NavLink } from "react-router";
import { useCart } from "~/cart/cart-context";

const LINKS = [
  { to: "/", label: "Inicio" },
  { to: "/colecciones", label: "Colecciones" },
  { to: "/nosotros", label: "Nosotros" },
];

export function SiteHeader({ shopName }: { shopName: string }) {
  const { count, setShowCart } = useCart();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <header
      data-scrolled={scrolled}
      className={`sticky top-0 z-30 transition-colors duration-300 ${
        scrolled ? "bg-cream/95 shadow-sm backdrop-blur" : "bg-transparent"
      }`}
    >
      {/* Phones: brand and cart on the first row, the links below. Wider screens: one row. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-3 px-4 py-2 sm:flex-nowrap sm:py-3">
        <NavLink
          to="/"
          className="whitespace-nowrap font-serif text-lg tracking-wide text-gold-700 sm:text-2xl"
        >
          {shopName}
        </NavLink>
        <nav
          aria-label="Principal"
          className="order-3 flex w-full items-center justify-center gap-5 pb-1 text-sm sm:order-2 sm:ml-auto sm:w-auto sm:gap-4 sm:pb-0 sm:text-base"
        >
          {LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              end={link.to === "/"}
              className={({ isActive }) =>
                `rounded px-1 py-1 hover:text-gold-700 ${isActive ? "text-gold-700 underline underline-offset-4" : ""}`
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <button
          type="button"
          onClick={() => setShowCart(true)}
          className="relative order-2 rounded-full p-2 hover:bg-sand sm:order-3"
          aria-label={`Abrir carrito (${count} ${count === 1 ? "pieza" : "piezas"})`}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          >
            <path d="M5 8h14l-1.2 11.1a2 2 0 0 1-2 1.9H8.2a2 2 0 0 1-2-1.9L5 8Z" />
            <path d="M9 8V6a3 3 0 0 1 6 0v2" />
          </svg>
          {count > 0 && (
            <span
              data-testid="cart-count"
              className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-gold-700 px-1 text-xs font-semibold text-cream"
            >
              {count}
            </span>
          )}
        </button>
      </div>
    </header>
  );
}
