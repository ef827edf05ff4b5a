import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useNonce } from "~/lib/nonce";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/root";
import "./app.css";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function loader({ context }: Route.LoaderArgs) {
  // Only the public shop settings reach the browser.
  return { shop: context.get(servicesContext).config.shop, year: new Date().getFullYear() };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="es-MX">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#faf6ef" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <header className="border-b border-sand bg-cream/95">
          <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4">
            <a href="/" className="font-serif text-2xl tracking-wide text-gold-700">
              {data?.shop.name ?? "Tienda"}
            </a>
          </div>
        </header>
        {children}
        <footer className="mt-16 border-t border-sand px-4 py-8 text-center text-sm text-ink/70">
          © {data?.year ?? new Date().getFullYear()} {data?.shop.name}. Todos los derechos reservados.
        </footer>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">{notFound ? "Página no encontrada" : "Algo salió mal"}</h1>
      <p className="mt-4 text-ink/70">
        {notFound
          ? "La página que buscas no existe o ya no está disponible."
          : "Ocurrió un error inesperado. Intenta de nuevo en unos momentos."}
      </p>
      <a href="/" className="mt-8 inline-block underline">
        Volver al inicio
      </a>
    </main>
  );
}
