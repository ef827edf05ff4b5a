import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { busyMessage, proofMessage } from "~/auth/login-busy";
import { logLoginRefusal } from "~/auth/login-log.server";
import { PASSWORD_MAX_LENGTH } from "~/auth/password-policy";
import { AuthField, AuthSubmit, useFieldClearedOnRefusal } from "~/components/auth-field";
import { useProofRetry } from "~/components/proof-retry";
import { RouteError } from "~/components/route-error";
import { clientAddressContext } from "~/web/client-address";
import {
  adminSessionContext,
  isSecureRequest,
  requireSameOrigin,
  SET_UP_PATH,
  setUpSessionContext,
} from "~/web/guards.server";
import { safeAdminPath } from "~/web/paths";
import { servicesContext } from "~/web/services";
import { signInDevice } from "~/web/sign-in-device";
import type { Route } from "./+types/login";

const INVALID = "Credenciales inválidas";
const HOME = "/admin/orders";

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
  if (context.get(setUpSessionContext)) throw redirect(SET_UP_PATH);
  return {
    redirectTo,
    signedOut: url.searchParams.get("sesion") === "cerrada",
    shopName: context.get(servicesContext).settings.current().shop.name,
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
    previousSessionId: (context.get(adminSessionContext) ?? context.get(setUpSessionContext))?.sessionId,
    ...signInDevice(context, form),
  });
  if (!result.ok) {
    logLoginRefusal(result.reason, context.get(clientAddressContext));
    if (result.reason === "invalido") return data({ error: INVALID, email }, { status: 401 });
    const headers = { "Retry-After": String(result.retryAfterSeconds) };
    // The shop as a whole is busy: says so, since it tells nothing about any account or address.
    if (result.reason === "ocupado")
      return data({ error: busyMessage(result.retryAfterSeconds), email }, { status: 429, headers });
    // An unknown device past the shop's limits: the page solves a proof of work and sends again.
    if (result.reason === "prueba")
      return data(
        { error: proofMessage(result.retryAfterSeconds), email, proof: true },
        { status: 429, headers },
      );
    // Locked or wrong: the same words either way, so the form reveals nothing about the account.
    return data({ error: INVALID, email }, { status: 429, headers });
  }
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  const redirectTo = safeAdminPath(String(form?.get("redirectTo") ?? ""));
  if (result.step === "set-up") throw redirect(SET_UP_PATH, { headers });
  if (result.step === "code") {
    // The code from the app comes next; the page asked for first is still where it ends.
    const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
    throw redirect(`/login/codigo${query}`, { headers });
  }
  throw redirect(redirectTo ?? HOME, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // The form posts to its own address, query and all (`/login?sesion=cerrada`, `?redirectTo=…`).
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const error = actionData?.error;
  // After a refusal the e-mail stays, the password is emptied and ready to type again.
  const password = useFieldClearedOnRefusal(actionData);
  const { solving, onSubmit } = useProofRetry(actionData);
  return (
    <main className="mx-auto max-w-sm px-4 py-16">
      <h1 className="text-center font-serif text-3xl">Iniciar sesión</h1>
      <p className="mt-2 text-center text-sm text-ink/70">Acceso para la administración de la tienda.</p>
      {loaderData.signedOut && !error && (
        <p role="status" className="mt-6 rounded-lg bg-sand px-4 py-3 text-center text-sm">
          Cerraste tu sesión.
        </p>
      )}
      <Form
        method="post"
        onSubmit={onSubmit}
        className="mt-8 space-y-5"
        aria-describedby={error ? "login-error" : undefined}
      >
        {loaderData.redirectTo && <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />}
        <AuthField
          id="email"
          label="Correo electrónico"
          type="email"
          required
          autoComplete="username"
          inputMode="email"
          defaultValue={actionData?.email ?? ""}
        />
        <AuthField
          ref={password}
          id="password"
          label="Contraseña"
          type="password"
          required
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <AuthSubmit error={error} errorId="login-error" busy={busy} solving={solving}>
          Entrar
        </AuthSubmit>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
