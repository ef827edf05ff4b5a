import type { ReactNode } from "react";
import { Link } from "react-router";
import type { PublicShopSettings } from "~/config/env.server";
import { LEGAL_LINKS } from "~/content/legal";

export function SiteFooter({ shop, year }: { shop: PublicShopSettings; year: number }) {
  const contacts: { href: string; label: string; icon: ReactNode }[] = [
    {
      href: shop.instagramUrl,
      label: "Instagram",
      icon: (
        <>
          <rect x="3" y="3" width="18" height="18" rx="5" />
          <circle cx="12" cy="12" r="4" />
          <circle cx="17.5" cy="6.5" r="1" fill="currentColor" />
        </>
      ),
    },
    {
      href: `https://wa.me/${shop.whatsapp}`,
      label: `WhatsApp +${shop.whatsapp}`,
      icon: (
        <>
          <path d="M4 20l1.3-4A8 8 0 1 1 8 18.7L4 20Z" />
          <path d="M9 9.5c0 3 2.5 5.5 5.5 5.5l1-1.5-2-1-1 .8a4 4 0 0 1-1.8-1.8l.8-1-1-2L9 9.5Z" />
        </>
      ),
    },
    {
      href: `mailto:${shop.email}`,
      label: `Correo ${shop.email}`,
      icon: (
        <>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="m4 7 8 6 8-6" />
        </>
      ),
    },
  ];
  return (
    <footer className="mt-20 border-t border-sand bg-sand/40 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-10 text-center text-sm text-ink/80">
        <ul className="flex gap-5" aria-label="Contacto">
          {contacts.map((contact) => (
            <li key={contact.label}>
              <a href={contact.href} className="block rounded-full p-2 hover:bg-sand" rel="noopener">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="size-6"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.6"
                >
                  {contact.icon}
                </svg>
                <span className="sr-only">{contact.label}</span>
              </a>
            </li>
          ))}
        </ul>
        <p>
          <Link to="/mi-pedido" className="underline underline-offset-4 hover:text-ink">
            Mi pedido
          </Link>
          : dónde está tu compra
        </p>
        <nav aria-label="Información legal">
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2">
            {LEGAL_LINKS.map((link) => (
              <li key={link.path}>
                <Link to={link.path} className="underline underline-offset-4 hover:text-ink">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p>
          © {year} {shop.name}. Todos los derechos reservados.
        </p>
        <p>
          Powered by{" "}
          <a href={shop.agencyUrl} className="underline" rel="noopener">
            {shop.agencyName}
          </a>
        </p>
      </div>
    </footer>
  );
}
