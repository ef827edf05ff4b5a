import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("colecciones", "routes/collections.tsx"),
  route("coleccion/:dropId", "routes/collection.tsx"),
  route("drop/:dropId/product/:productId", "routes/product.tsx"),
  route("nosotros", "routes/about.tsx"),
  route("success", "routes/success.tsx"),
  route("cancel", "routes/cancel.tsx"),
  route("api/cart", "routes/api.cart.ts"),
  route("api/checkout", "routes/api.checkout.ts"),
  route("api/stripe/webhook", "routes/api.stripe-webhook.ts"),
  route("pago-demo/:orderId", "routes/demo-payment.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
