import { data, Form, Link, redirect, useNavigation } from "react-router";
import { busyMessage, proofMessage } from "~/auth/login-busy";
import { logLoginRefusal } from "~/auth/login-log.server";
import { CHALLENGE_COOKIE, TRUSTED_DEVICE_DAYS } from "~/auth/second-factor";
import { AuthField, AuthSubmit, useFieldClearedOnRefusal } from "~/components/auth-field";
import { useProofRetry } from "~/components/proof-retry";
import { RouteError } from "~/components/route-error";
import { clientAddressContext } from "~/web/client-address";
import { adminSessionContext, isSecureRequest, requireSameOrigin } from "~/web/guards.server";
import { safeAdminPath } from "~/web/paths";
import { servicesContext } from "~/web/services";
import { signInDevice } from "~/web/sign-in-device";
import type { Route } from "./+types/login-code";

/** The second step of signing in: the code from the authenticator app, or a recovery code. */

const HOME = "/admin/orders";
const WRONG = "Código incorrecto. Revisa el código de tu app o de recuperación e intenta de nuevo.";
const EXPIRED = "Tu inicio de sesión expiró. Vuelve a escribir tu contraseña.";
const LIMITED = "Demasiados intentos fallidos. Espera unos minutos e intenta de nuevo.";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Verificación en dos pasos · ${loaderData?.shopName ?? "Tienda"}` },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export function loader({ request, url, context }: Route.LoaderArgs) {
  const redirectTo = safeAdminPath(url.searchParams.get("redirectTo"));
  if (context.get(adminSessionContext)) throw redirect(redirectTo ?? HOME);
  // No sign-in waits for a code in this browser: the password comes first.
  if (!request.headers.get("cookie")?.includes(`${CHALLENGE_COOKIE}=`)) throw redirect("/login");
  return { redirectTo, shopName: context.get(servicesContext).config.shop.name };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireSameOrigin({ request, context });
  const form = await request.formData().catch(() => null);
  const code = String(form?.get("code") ?? "").slice(0, 40);
  if (!code.trim()) return data({ error: WRONG }, { status: 400 });
  const { auth, config } = context.get(servicesContext);
  const address = context.get(clientAddressContext);
  const result = await auth.verifyCode({
    code,
    trustDevice: form?.get("trustDevice") === "on",
    address,
    headers: request.headers,
    secure: isSecureRequest(request, config),
    ...signInDevice(context, form),
  });
  if (!result.ok) {
    if (result.reason !== "vencido") logLoginRefusal(result.reason, address);
    if (result.reason === "invalido") return data({ error: WRONG }, { status: 401 });
    // Thrown, not returned: the page itself would send a browser without a challenge to /login.
    if (result.reason === "vencido")
      throw Response.json({ message: EXPIRED }, { status: 401, headers: { "Cache-Control": "no-store" } });
    const headers = { "Retry-After": String(result.retryAfterSeconds) };
    if (result.reason === "prueba")
      return data({ error: proofMessage(result.retryAfterSeconds), proof: true }, { status: 429, headers });
    const error = result.reason === "ocupado" ? busyMessage(result.retryAfterSeconds) : LIMITED;
    return data({ error }, { status: 429, headers });
  }
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  throw redirect(safeAdminPath(String(form?.get("redirectTo") ?? "")) ?? HOME, { headers });
}

export default function LoginCode({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const error = actionData?.error;
  // After a refusal the field is emptied and ready for the next code.
  const input = useFieldClearedOnRefusal(actionData);
  const { solving, onSubmit } = useProofRetry(actionData);
  return (
    <main className="mx-auto max-w-sm px-4 py-16">
      <h1 className="text-center font-serif text-3xl">Verificación en dos pasos</h1>
      <p className="mt-2 text-center text-sm text-ink/70">
        Escribe el código de 6 dígitos que muestra tu app de autenticación, o uno de tus códigos de
        recuperación.
      </p>
      <Form
        method="post"
        onSubmit={onSubmit}
        className="mt-8 space-y-5"
        aria-describedby={error ? "code-error" : undefined}
      >
        {loaderData.redirectTo && <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />}
        <AuthField
          ref={input}
          id="code"
          label="Código de verificación"
          code
          type="text"
          required
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={40}
        />
        <div className="flex items-start gap-2">
          <input id="trustDevice" name="trustDevice" type="checkbox" className="mt-1 size-4" />
          <label htmlFor="trustDevice" className="text-sm">
            Confiar en este dispositivo
            <span className="block text-ink/70">
              No se pedirá el código aquí durante {TRUSTED_DEVICE_DAYS} días. Úsalo solo en un equipo tuyo.
            </span>
          </label>
        </div>
        <AuthSubmit error={error} errorId="code-error" busy={busy} solving={solving}>
          Verificar
        </AuthSubmit>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="underline">
          Volver a iniciar sesión
        </Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
