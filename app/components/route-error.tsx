import { type ComponentProps, lazy, Suspense } from "react";
import type { RouteError as Body } from "./route-error-body";

/*
 * A route's error boundary (./route-error-body). Its code is fetched only when a page shows an
 * error: every storefront page's JavaScript (`npm run bench:storefront`) leaves it out.
 */
const LazyBody = lazy(() => import("./route-error-body").then((m) => ({ default: m.RouteError })));

export function RouteError(props: ComponentProps<typeof Body>) {
  return (
    <Suspense fallback={null}>
      <LazyBody {...props} />
    </Suspense>
  );
}

/**
 * The error page of a buyer's signed order link (her order, its return, its factura): a link cut
 * off by a chat app, or older than the shop's current keys, leads to finding the order again.
 */
export function OrderLinkError() {
  return (
    <RouteError
      notFoundTitle="Pedido no encontrado"
      notFoundMessage="El enlace está incompleto o ya no es válido. Búscalo con su número y tu correo."
      home={{ to: "/mi-pedido", label: "Buscar mi pedido" }}
      message="No pudimos mostrar esta página."
    />
  );
}
