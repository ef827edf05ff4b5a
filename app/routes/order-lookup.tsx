import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { safeText } from "~/lib/text";
import { findBuyerOrder } from "~/orders/order-page.server";
import { orderPagePath } from "~/orders/order-page-link.server";
import { limitMessage } from "~/rate-limits/request-limits.server";
import { limitRefusalContext } from "~/web/limit-refusal";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/order-lookup";

export const meta = () => [{ title: "Mi pedido" }, { name: "robots", content: "noindex" }];

export const headers = () => ({ "Cache-Control": "no-store" });

/** The one answer for an unknown number and a wrong e-mail alike: it never tells which. */
export const NOT_FOUND_MESSAGE =
  "No encontramos un pedido con ese número y ese correo. Revisa los dos en tu correo de confirmación.";

const lookup = z.object({
  number: safeText()
    .min(1, "Escribe el número de tu pedido (OL-…).")
    .max(40, "Escribe el número de tu pedido (OL-…)."),
  email: safeText().max(200, "Escribe un correo válido.").pipe(z.email("Escribe un correo válido.")),
});

type Answer = { message: string; errors: Record<string, string>; number: string; email: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const typed = (name: string) =>
    String(form?.get(name) ?? "")
      .slice(0, 200)
      .replace(/[<>]/g, "");
  const answer = (status: number, body: Partial<Answer>, headers: Record<string, string> = {}) =>
    data<Answer>(
      { message: "", errors: {}, number: typed("number"), email: typed("email"), ...body },
      { status, headers: { "Cache-Control": "no-store", ...headers } },
    );
  // Counted at the edge (server/edge-routes.ts): past the limit, the wait in Spanish.
  const wait = context.get(limitRefusalContext);
  if (wait !== null) return answer(429, { message: limitMessage(wait) }, { "Retry-After": String(wait) });
  const parsed = lookup.safeParse({ number: form?.get("number") ?? "", email: form?.get("email") ?? "" });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return answer(400, { errors });
  }
  const { database, orderPageLinks } = context.get(servicesContext);
  const order = await findBuyerOrder(database.db, parsed.data.number, parsed.data.email);
  if (!order) return answer(404, { message: NOT_FOUND_MESSAGE });
  throw redirect(orderPagePath(orderPageLinks, order));
}

export default function OrderLookup({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.errors ?? {};
  return (
    <main className="mx-auto max-w-md px-4 py-16">
      <h1 className="font-serif text-4xl">Mi pedido</h1>
      <p className="mt-3 text-ink/80">
        Escribe el número de tu pedido y el correo con que pagaste: los dos vienen en tu correo de
        confirmación.
      </p>
      <Form method="post" className="mt-8 space-y-4" noValidate>
        {[
          { name: "number", label: "Número de pedido", autoComplete: "off", placeholder: "OL-XXXXXXXX" },
          { name: "email", label: "Correo electrónico", autoComplete: "email", type: "email" },
        ].map((field) => (
          <div key={field.name}>
            <label htmlFor={field.name} className="block text-sm font-medium">
              {field.label}
            </label>
            <input
              id={field.name}
              name={field.name}
              type={field.type ?? "text"}
              autoComplete={field.autoComplete}
              placeholder={field.placeholder}
              defaultValue={actionData?.[field.name as "number" | "email"] ?? ""}
              required
              aria-invalid={errors[field.name] ? true : undefined}
              aria-describedby={errors[field.name] ? `${field.name}-error` : undefined}
              className="mt-1 w-full rounded border border-ink/30 bg-white px-3 py-2"
            />
            {errors[field.name] && (
              <p id={`${field.name}-error`} className="mt-1 text-sm text-red-800">
                {errors[field.name]}
              </p>
            )}
          </div>
        ))}
        {actionData?.message && (
          <p role="alert" className="text-sm text-red-900">
            {actionData.message}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-ink py-3 font-medium text-cream disabled:opacity-60"
        >
          Ver mi pedido
        </button>
      </Form>
    </main>
  );
}
