import { Link } from "react-router";
import { mailLogHref } from "~/campaigns/mail-log";

/** The notice's title: '1 correo de un pedido no ha salido (últimos 7 días).', plural past one. */
export function undeliveredMailTitle(count: number, days: number): string {
  const what =
    count === 1
      ? "1 correo de un pedido no ha salido"
      : `${count.toLocaleString("es-MX")} correos de pedidos no han salido`;
  return `${what} (últimos ${days} días).`;
}

/**
 * On every admin page while e-mails about orders of the last days have not gone out: a buyer
 * without her confirmation has no link to her order, and the mail log is two clicks away. It ends
 * by itself once they go out (the queue retries them; 'Reenviar' sends one now) or are no longer
 * needed.
 */
export function UndeliveredMailNotice({ count, days }: { count: number; days: number }) {
  if (count <= 0) return null;
  return (
    <section
      aria-labelledby="correos-sin-salir"
      className="mb-6 rounded-lg border border-red-800/40 bg-red-50 px-4 py-3 text-sm text-red-900 print:hidden"
    >
      <p id="correos-sin-salir" className="font-semibold">
        {undeliveredMailTitle(count, days)}
      </p>
      <p className="mt-1">
        La tienda vuelve a intentarlo sola durante unos días. Si el servidor de correo rechazó una dirección,
        revisa los datos del comprador en su pedido; si los rechaza todos, revisa la configuración del correo.
      </p>
      <Link
        to={mailLogHref("fallido", 1, "pedidos")}
        className="mt-1 inline-flex min-h-11 items-center underline"
      >
        Ver los correos que fallaron
      </Link>
    </section>
  );
}
