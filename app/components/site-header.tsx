import { useEffect, useState } from "react";
import { Form, NavLink, useLocation } from "react-router";
import { useCart } from "~/components/cart/cart-context";
import { prefetchCartDrawer } from "~/components/cart/lazy-cart-drawer";
import { useHydrated } from "~/components/hydration";
import { isAdminPath } from "~/web/paths";

const LINKS = [
  { to: "/", label: "Inicio" },
  { to: "/colecciones", label: "Colecciones" },
  { to: "/nosotros", label: "Nosotros" },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-1 py-1 hover:text-gold-700 ${isActive ? "text-gold-700 underline underline-offset-4" : ""}`;

/** The shop's header; a signed-in administrator also gets the Admin link and 'Cerrar sesión'. */
export function SiteHeader({ shopName, signedIn }: { shopName: string; signedIn: boolean }) {
  const { count, setShowCart } = useCart();
  const hydrated = useHydrated();
  const inAdmin = isAdminPath(useLocation().pathname);
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
      className={`sticky top-0 z-30 transition-colors duration-300 print:hidden ${
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
          className={`order-3 flex w-full flex-wrap items-center justify-center gap-y-1 pb-1 text-sm sm:order-2 sm:ml-auto sm:w-auto sm:gap-4 sm:pb-0 sm:text-base ${signedIn ? "gap-x-3" : "gap-x-5"}`}
        >
          {LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === "/"} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
          {signedIn && (
            <>
              <NavLink to="/admin/orders" className={() => linkClass({ isActive: inAdmin })}>
                Admin
              </NavLink>
              <Form method="post" action="/logout" className="contents">
                <button type="submit" className="rounded px-1 py-1 hover:text-gold-700">
                  Cerrar sesión
                </button>
              </Form>
            </>
          )}
        </nav>
        <button
          type="button"
          disabled={!hydrated}
          onClick={() => setShowCart(true)}
          // The drawer's code is fetched when a tap or a click is on its way, not with the page.
          onPointerEnter={prefetchCartDrawer}
          onTouchStart={prefetchCartDrawer}
          onFocus={prefetchCartDrawer}
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
