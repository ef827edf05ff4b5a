import { useEffect } from "react";
import { Link } from "react-router";
import { useCart } from "~/components/cart/cart-context";
import { pageTakesNoForm } from "~/http/methods";

export const meta = () => [{ title: "¡Gracias por tu compra!" }, { name: "robots", content: "noindex" }];

export const action = pageTakesNoForm;

export default function Success() {
  const { clear } = useCart();
  // Reaching this page means the payment went through: the cart is done.
  useEffect(() => clear(), [clear]);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">¡Gracias por tu compra!</h1>
      <p className="mt-4 text-ink/80">
        Te enviaremos un correo de confirmación con el detalle de tu pedido. Cuando lo enviemos, te llegará
        otro con el número de guía.
      </p>
      <Link
        to="/colecciones"
        className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
      >
        Seguir viendo colecciones
      </Link>
    </main>
  );
}
