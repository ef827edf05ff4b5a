// Any address that matches no page: a real 404 with the shop's shell.
export function loader() {
  throw new Response("No encontrado", { status: 404 });
}

export default function NotFound() {
  return null;
}

// A form or fetch posted to an unknown address is a 404 too, not a 405 with a server-side trace.
export function action() {
  throw new Response("No encontrado", { status: 404 });
}
