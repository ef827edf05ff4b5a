import { Link } from "react-router";

export const meta = () => [{ title: "Algo salió mal" }, { name: "robots", content: "noindex" }];

export default function Cancel() {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">Algo salió mal</h1>
      <p className="mt-4 text-ink/80">
        No pudimos procesar tu compra... No se hizo ningún cargo y tus piezas siguen en tu carrito.
      </p>
      <Link
        to="/colecciones"
        className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
      >
        Volver a las colecciones
      </Link>
    </main>
  );
}
