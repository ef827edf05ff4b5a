import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";
import { PATHS, routePath } from "./web/paths";

// Addresses the server's edge also knows come from PATHS (app/web/paths.ts).

export default [
  index("routes/home.tsx"),
  route("colecciones", "routes/collections.tsx"),
  route(routePath(PATHS.collection), "routes/collection.tsx"),
  route(routePath(PATHS.product), "routes/product.tsx"),
  route("nosotros", "routes/about.tsx"),
  route("aviso-de-privacidad", "routes/legal.tsx", { id: "legal-privacidad" }),
  route("envios", "routes/legal.tsx", { id: "legal-envios" }),
  route("cambios-y-devoluciones", "routes/legal.tsx", { id: "legal-devoluciones" }),
  route("terminos-y-condiciones", "routes/legal.tsx", { id: "legal-terminos" }),
  route("success", "routes/success.tsx"),
  route(routePath(PATHS.orderLookup), "routes/order-lookup.tsx"),
  route(`${routePath(PATHS.orderLookup)}/:orderId`, "routes/order-page.tsx"),
  route(`${routePath(PATHS.orderLookup)}/:orderId/devolucion`, "routes/order-return.tsx"),
  route(`${routePath(PATHS.orderLookup)}/:orderId/factura`, "routes/invoice-request.tsx"),
  route(routePath(PATHS.cancel), "routes/cancel.tsx"),
  route("avisame/confirmar", "routes/waitlist-confirm.tsx"),
  route("avisame/baja", "routes/waitlist-unsubscribe.tsx"),
  route(routePath(PATHS.login), "routes/login.tsx"),
  route(routePath(PATHS.loginCode), "routes/login-code.tsx"),
  route(routePath(PATHS.loginSetUp), "routes/login-set-up.tsx"),
  route("logout", "routes/logout.ts"),
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/index.tsx"),
      route("orders", "routes/admin/orders/index.tsx"),
      route("orders/imprimir", "routes/admin/orders/print-many.tsx"),
      route("orders/:orderId", "routes/admin/orders/detail.tsx"),
      route("orders/:orderId/imprimir", "routes/admin/orders/print.tsx"),
      ...prefix("drops", [
        layout("routes/admin/drops/layout.tsx", [
          index("routes/admin/drops/list.tsx", { id: "admin-drops-index" }),
          route("show-active-drops", "routes/admin/drops/list.tsx", { id: "admin-drops-active" }),
          route("show-upcoming-drops", "routes/admin/drops/list.tsx", { id: "admin-drops-upcoming" }),
          route("show-archive-drops", "routes/admin/drops/list.tsx", { id: "admin-drops-archive" }),
          route("new-drop", "routes/admin/drops/new.tsx"),
          route("edit-drop/:dropId", "routes/admin/drops/edit.tsx"),
        ]),
        route(":dropId/apertura", "routes/admin/drops/opening.tsx"),
      ]),
      // The spec's spelling of the address is kept.
      ...prefix("campains", [
        index("routes/admin/campaigns/waitlists.tsx", { id: "admin-campains" }),
        route("correos", "routes/admin/campaigns/mail-log.tsx"),
        route("exportar.csv", "routes/admin/campaigns/export.ts"),
      ]),
      route("devoluciones", "routes/admin/returns.tsx"),
      route("reports", "routes/admin/reports.tsx", { id: "admin-reports" }),
      route("facturas", "routes/admin/invoices.tsx"),
      route("settings", "routes/admin/settings.tsx", { id: "admin-settings" }),
      route("sessions", "routes/admin/sessions.ts"),
      route(routePath(PATHS.adminMedia, "/admin"), "routes/admin/media.ts"),
    ]),
    // Downloads, outside the shell: signed out they answer 401 instead of the sign-in page.
    route("reports.csv", "routes/admin/reports-csv.ts"),
    route("orders/exportar.csv", "routes/admin/orders/export.ts"),
    route("facturas/solicitudes.csv", "routes/admin/invoices-csv.ts", { id: "admin-invoice-requests-csv" }),
    route("facturas/global.csv", "routes/admin/invoices-csv.ts", { id: "admin-global-invoice-csv" }),
    // What the live opening page reads every second (JSON).
    route("drops/:dropId/apertura/datos", "routes/admin/drops/opening-data.ts"),
  ]),
  route("api/cart", "routes/api.cart.ts"),
  route(routePath(PATHS.checkout), "routes/api.checkout.ts"),
  route("api/stripe/webhook", "routes/api.stripe-webhook.ts"),
  route("pago-demo/:orderId", "routes/demo-payment.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
