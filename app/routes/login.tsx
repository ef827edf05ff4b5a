import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { busyMessage, busyPage } from "~/auth/login-busy";
import { PASSWORD_MAX_LENGTH } from "~/auth/password-policy";
import { RouteError } from "~/components/route-error";
import {
  adminSessionContext,
  isSecureRequest,
  requireSameOrigin,
  safeAdminPath,
} from "~/lib/admin-guards.server";
import { clientAddressContext } from "~/lib/client-address";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/login";

const INVALID = "Credenciales inválidas";
const HOME = "/admin/orders";

type Refusal = "invalid" | "limited" | "busy";
const REFUSAL_WORDS: Record<Refusal, string> = {
  invalid: "credenciales",
  limited: "demasiados intentos",
  busy: "tienda ocupada",
};

/** Busy refusals come in floods: the first is logged, then one line each BUSY_LOG_MS says how many more. */
const BUSY_LOG_MS = 10_000;
let busyUnlogged = 0;
let busyTimer: ReturnType<typeof setTimeout> | null = null;

function flushBusyCount(): void {
  if (busyUnlogged === 0) {
    busyTimer = null;
    return;
  }
  console.warn(
    `Inicio de sesión rechazado (${REFUSAL_WORDS.busy}): ${busyUnlogged} más en los últimos ${BUSY_LOG_MS / 1000} s`,
  );
  busyUnlogged = 0;
  busyTimer = setTimeout(flushBusyCount, BUSY_LOG_MS);
  busyTimer.unref();
}

/**
 * One line per refused login, with the client's address (never the e-mail or password typed);
 * busy refusals after the first are only counted, so a flood cannot flood the log.
 */
function logRefusal(reason: Refusal, address: string): void {
  if (reason === "busy" && busyTimer) {
    busyUnlogged++;
    return;
  }
  console.warn(`Inicio de sesión rechazado (${REFUSAL_WORDS[reason]}) desde ${address}`);
  if (reason === "busy") {
    busyTimer = setTimeout(flushBusyCount, BUSY_LOG_MS);
    busyTimer.unref();
  }
}

/**
 * While the server already knows the shop is too busy for a sign-in (no database read), a login
 * form posted without JavaScript gets a small page at once instead of the whole login page: each
 * guess of a flood then costs about a third of the work. With JavaScript the form asks for
 * `/login.data` and the action answers (also without reading the database), so the message shows
 * in the form.
 */
const refuseWhileBusy: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (request.method !== "POST" || new URL(request.url).pathname.endsWith(".data")) return next();
  const wait = context.get(servicesContext).auth.busyFor();
  if (wait === null) return next();
  logRefusal("busy", context.get(clientAddressContext));
  return new Response(busyPage(wait), {
    status: 429,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(wait) },
  });
};

export const middleware: Route.MiddlewareFunction[] = [refuseWhileBusy];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Iniciar sesión · ${loaderData?.shopName ?? "Tienda"}` },
  { name: "robots", content: "noindex" },
];

// A refused login's Retry-After reaches the browser on the page's own answer too.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export function loader({ url, context }: Route.LoaderArgs) {
  const redirectTo = safeAdminPath(url.searchParams.get("redirectTo"));
  // Already signed in: straight on.
  if (context.get(adminSessionContext)) throw redirect(redirectTo ?? HOME);
  return {
    redirectTo,
    signedOut: url.searchParams.get("sesion") === "cerrada",
    shopName: context.get(servicesContext).config.shop.name,
  };
}

const credentials = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export async function action({ request, context }: Route.ActionArgs) {
  // A login forced by another site would sign the browser into someone else's account.
  requireSameOrigin({ request, context });
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").trim();
  const parsed = credentials.safeParse({ email, password: form?.get("password") ?? "" });
  if (!parsed.success) return data({ error: INVALID, email }, { status: 400 });

  const { auth, config } = context.get(servicesContext);
  const result = await auth.signIn({
    ...parsed.data,
    address: context.get(clientAddressContext),
    headers: request.headers,
    secure: isSecureRequest(request, config),
    previousSessionId: context.get(adminSessionContext)?.sessionId,
  });
  if (!result.ok) {
    logRefusal(result.reason, context.get(clientAddressContext));
    if (result.reason === "invalid") return data({ error: INVALID, email }, { status: 401 });
    const headers = { "Retry-After": String(result.retryAfterSeconds) };
    // The shop as a whole is busy: says so, since it tells nothing about any account or address.
    if (result.reason === "busy")
      return data({ error: busyMessage(result.retryAfterSeconds), email }, { status: 429, headers });
    // Locked or wrong: the same words either way, so the form reveals nothing about the account.
    return data({ error: INVALID, email }, { status: 429, headers });
  }
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  throw redirect(safeAdminPath(String(form?.get("redirectTo") ?? "")) ?? HOME, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/login";
  const error = actionData?.error;
  const password = useRef<HTMLInputElement>(null);
  // After a refusal the e-mail stays, the password is emptied and ready to type again.
  useEffect(() => {
    if (!actionData?.error || !password.current) return;
    password.current.value = "";
    password.current.focus();
  }, [actionData]);
  return (
    <main className="mx-auto max-w-sm px-4 py-16">
      <h1 className="text-center font-serif text-3xl">Iniciar sesión</h1>
      <p className="mt-2 text-center text-sm text-ink/70">Acceso para la administración de la tienda.</p>
      {loaderData.signedOut && !error && (
        <p role="status" className="mt-6 rounded-lg bg-sand px-4 py-3 text-center text-sm">
          Cerraste tu sesión.
        </p>
      )}
      <Form method="post" className="mt-8 space-y-5" aria-describedby={error ? "login-error" : undefined}>
        {loaderData.redirectTo && <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />}
        <div>
          <label htmlFor="email" className="block text-sm font-medium">
            Correo electrónico
          </label>
          <input
            id="email"
            name="email"
            type="email"
            required
            autoComplete="username"
            inputMode="email"
            defaultValue={actionData?.email ?? ""}
            className="mt-1 w-full rounded-lg border border-ink/20 bg-white px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor="password" className="block text-sm font-medium">
            Contraseña
          </label>
          <input
            ref={password}
            id="password"
            name="password"
            type="password"
            required
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            className="mt-1 w-full rounded-lg border border-ink/20 bg-white px-3 py-2"
          />
        </div>
        {error && (
          <p id="login-error" role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-ink px-6 py-3 font-medium text-cream disabled:opacity-60"
        >
          {busy ? "Verificando..." : "Entrar"}
        </button>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
