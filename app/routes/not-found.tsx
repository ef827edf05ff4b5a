// Any address that matches no page: a real 404 with the shop's shell.
export function loader() {
  throw new Response("No encontrado", { status: 404 });
}

export default function NotFound() {
  return null;
}
