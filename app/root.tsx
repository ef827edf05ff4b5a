import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { CartProvider } from "~/components/cart/cart-context";
import { LazyCartDrawer } from "~/components/cart/lazy-cart-drawer";
import { useMarkHydrated } from "~/components/hydration";
import { RouteError } from "~/components/route-error";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { yearOf } from "~/lib/dates";
import { installmentsOffer } from "~/settings/installments";
import { shippingSummary } from "~/settings/settings";
import { shippingOffer } from "~/settings/shipping-rates";
import { adminSessionContext, sessionMiddleware } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { useNonce } from "~/web/nonce";
import { isAdminPath } from "~/web/paths";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/root";
import "./app.css";
// The same files app.css names (one hashed asset each): preloaded, so the text above the fold is
// drawn in the brand's type from the first paint on most connections.
import cormorantUrl from "@fontsource-variable/cormorant-garamond/files/cormorant-garamond-latin-wght-normal.woff2?url";
import jostUrl from "@fontsource-variable/jost/files/jost-latin-wght-normal.woff2?url";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...[jostUrl, cormorantUrl].map((href) => ({
    rel: "preload",
    href,
    as: "font",
    type: "font/woff2",
    crossOrigin: "anonymous" as const,
  })),
];

// A page that failed (a 404 above all) still has a title: the error boundary renders under the
// root, so the root's meta is the one that applies.
export const meta: Route.MetaFunction = ({ error }) => {
  if (!error) return [];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    { title: notFound ? "Página no encontrada" : "Algo salió mal" },
    { name: "robots", content: "noindex" },
  ];
};

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const session = context.get(adminSessionContext);
  const settings = context.get(servicesContext).settings.current();
  // Only the public shop settings reach the browser, and whether an administrator is signed in.
  return {
    shop: settings.shop,
    /** The shipping policy the cart drawer says under its subtotal (Configuración's 'Envíos'). */
    shipping: shippingSummary(settings),
    /** 'Meses sin intereses' the drawer says when its subtotal qualifies; null while off. */
    installments: installmentsOffer(settings.installments),
    /** The standard shipping and the free-shipping total the drawer says before 'Pagar' (decision 43). */
    shippingRates: shippingOffer(settings.shippingRates),
    // The year in Mexico City, as every date the shop shows (a server on UTC is a year ahead on 31 December evening).
    year: yearOf(new Date()),
    signedIn: session !== null,
  };
}

/**
 * While the next page's data loads, a notice shows at the top of the screen: the spec's
 * 'Cargando colección...', or, on the way into the admin area, 'Verificando autenticación...'
 * (the server checks the session before any admin content is sent).
 */
function NavigationProgress() {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "loading") return null;
  const checking = isAdminPath(navigation.location.pathname) && !isAdminPath(location.pathname);
  return (
    <div role="status" className="fixed inset-x-0 top-0 z-50 flex justify-center">
      <span className="mt-2 rounded-full bg-ink px-4 py-1 text-sm text-cream shadow">
        {checking
          ? "Verificando autenticación..."
          : isAdminPath(location.pathname)
            ? "Cargando..."
            : "Cargando colección..."}
      </span>
    </div>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  useMarkHydrated();
  return (
    <html lang="es-MX">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#faf6ef" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <a
          href="#contenido"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-cream focus:px-3 focus:py-2"
        >
          Saltar al contenido
        </a>
        <CartProvider>
          <SiteHeader shopName={data?.shop.name ?? "Tienda"} signedIn={data?.signedIn ?? false} />
          <NavigationProgress />
          <div id="contenido" className="flex-1">
            {children}
          </div>
          {data && <SiteFooter shop={data.shop} year={data.year} />}
          <LazyCartDrawer
            shipping={data?.shipping ?? null}
            installments={data?.installments ?? null}
            rates={data?.shippingRates ?? null}
          />
        </CartProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

// A post to "/" is the root's (the home page is its index route): a Spanish 405 too.
export const action = pageTakesNoForm;

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Página no encontrada"
      notFoundMessage="La página que buscas no existe o ya no está disponible."
      message="Ocurrió un error inesperado. Intenta de nuevo en unos momentos."
    />
  );
}
