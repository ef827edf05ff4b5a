import { RouteError } from "./route-error";

// Its own module: every page loads route-error, and the product page is at its JavaScript budget.
/**
 * The error page of a buyer's signed order link (her order, its return, its factura): a link cut
 * off by a chat app, or older than the shop's current keys, leads to finding the order again. A
 * link renewed since (its e-mail corrected, or the owner renewed it: a 410) says so, and how to
 * get the current one; neither shows anything of the order.
 */
export function OrderLinkError() {
  return (
    <RouteError
      notFoundTitle="Pedido no encontrado"
      notFoundMessage="El enlace está incompleto o ya no es válido. Búscalo con su número y tu correo."
      gone={{
        title: "Este enlace ya no es válido",
        message:
          "La tienda renovó el enlace de este pedido. Para verlo, búscalo con su número y el correo con que pagaste: te llevamos a su enlace vigente.",
      }}
      home={{ to: "/mi-pedido", label: "Buscar mi pedido" }}
      message="No pudimos mostrar esta página."
    />
  );
}
