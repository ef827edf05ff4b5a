import {
  createContext,
  data,
  Form,
  Link,
  redirect,
  type ShouldRevalidateFunction,
  useNavigation,
} from "react-router";
import { busyMessage, proofMessage } from "~/auth/login-busy";
import { logLoginRefusal } from "~/auth/login-log.server";
import { AuthField, AuthSubmit, useFieldClearedOnRefusal } from "~/components/auth-field";
import { useProofRetry } from "~/components/proof-retry";
import { RouteError } from "~/components/route-error";
import { clientAddressContext } from "~/web/client-address";
import {
  adminSessionContext,
  isSecureRequest,
  requireSameOrigin,
  setUpSessionContext,
} from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import { signInDevice } from "~/web/sign-in-device";
import type { Route } from "./+types/login-set-up";

/**
 * Setting up the second factor, at the first sign-in since it came: the QR code (and the secret
 * to type by hand) for the authenticator app, the first code from it, then the recovery codes,
 * shown this once. The only page a session without its second factor reaches.
 */

const HOME = "/admin/orders";
const WRONG = "Código incorrecto. Escribe el código de 6 dígitos que muestra tu app ahora mismo.";
const LIMITED = "Demasiados intentos fallidos. Espera unos minutos e intenta de nuevo.";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Configura la verificación en dos pasos · ${loaderData?.shopName ?? "Tienda"}` },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  // The recovery codes' page (a form posted without JavaScript) is never kept by any cache.
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};

/**
 * Set by the action when the first code ended the set-up. A form posted without JavaScript gets
 * the page rendered after the action, whose loader still sees the set-up session the request came
 * with: it must show the recovery codes, not send the browser away.
 */
const setUpDone = createContext(false);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, config } = context.get(servicesContext);
  if (context.get(setUpDone)) return { shopName: config.shop.name, email: "", qr: "", secret: "" };
  if (context.get(adminSessionContext)) throw redirect(HOME);
  const session = context.get(setUpSessionContext);
  if (!session) throw redirect("/login");
  const pending = await auth.pendingSetUp(session);
  if (!pending) {
    // A session from before the second factor came: the secret is made at a sign-in with the password.
    const headers = new Headers();
    for (const cookie of await auth.signOut(session.sessionId, isSecureRequest(request, config)))
      headers.append("Set-Cookie", cookie);
    throw redirect("/login", { headers });
  }
  // An SVG image (no script, allowed by the page's img-src); dark on light so phones read it.
  // Loaded for this page only (with its PNG encoder, 65 files): no other request needs it.
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(pending.uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return {
    shopName: config.shop.name,
    email: session.email,
    qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    // In groups of four, as apps show it, to copy by hand without losing the place.
    secret: pending.secret.replace(/(.{4})(?=.)/g, "$1 "),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireSameOrigin({ request, context });
  const session = context.get(setUpSessionContext);
  if (!session) {
    throw Response.json(
      { message: "Tu sesión terminó. Inicia sesión de nuevo." },
      { status: 401, headers: { "Cache-Control": "no-store" } },
    );
  }
  const form = await request.formData().catch(() => null);
  const code = String(form?.get("code") ?? "").slice(0, 20);
  if (!code.trim()) return data({ error: WRONG, recoveryCodes: null }, { status: 400 });
  const { auth, config } = context.get(servicesContext);
  const address = context.get(clientAddressContext);
  const result = await auth.completeSetUp({
    session,
    code,
    address,
    headers: request.headers,
    secure: isSecureRequest(request, config),
    ...signInDevice(context, form),
  });
  if (!result.ok) {
    logLoginRefusal(result.reason, address);
    if (result.reason === "invalido") return data({ error: WRONG, recoveryCodes: null }, { status: 401 });
    const headers = { "Retry-After": String(result.retryAfterSeconds) };
    if (result.reason === "prueba") {
      const error = proofMessage(result.retryAfterSeconds);
      return data({ error, recoveryCodes: null, proof: true }, { status: 429, headers });
    }
    const error = result.reason === "ocupado" ? busyMessage(result.retryAfterSeconds) : LIMITED;
    return data({ error, recoveryCodes: null }, { status: 429, headers });
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  context.set(setUpDone, true);
  return data({ error: null, recoveryCodes: result.recoveryCodes }, { headers });
}

// The recovery codes are on screen: this page's data is not asked again (the session is complete
// now, and its loader would send the browser on before they are written down).
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult?.recoveryCodes ? false : defaultShouldRevalidate;

export default function LoginSetUp({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const input = useFieldClearedOnRefusal(actionData);
  const { solving, onSubmit } = useProofRetry(actionData);

  if (actionData?.recoveryCodes) {
    return (
      <main className="mx-auto max-w-md px-4 py-16">
        <h1 className="text-center font-serif text-3xl">Guarda tus códigos de recuperación</h1>
        <p role="status" className="mt-6 rounded-lg bg-sand px-4 py-3 text-sm">
          La verificación en dos pasos quedó activada.
        </p>
        <p className="mt-6 text-sm">
          Si pierdes tu teléfono, cada uno de estos códigos te deja entrar <strong>una sola vez</strong> en
          lugar del código de la app. Guárdalos ahora en un lugar seguro (un gestor de contraseñas o una hoja
          impresa guardada bajo llave): <strong>no se volverán a mostrar</strong>.
        </p>
        <ul aria-label="Códigos de recuperación" className="mt-6 grid grid-cols-2 gap-2 font-mono text-sm">
          {actionData.recoveryCodes.map((code) => (
            <li key={code} className="rounded bg-white px-3 py-2 text-center">
              {code}
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center">
          <Link
            to={HOME}
            reloadDocument
            className="inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
          >
            Ya los guardé, ir a la administración
          </Link>
        </p>
      </main>
    );
  }

  const error = actionData?.error;
  return (
    <main className="mx-auto max-w-md px-4 py-16">
      <h1 className="text-center font-serif text-3xl">Configura la verificación en dos pasos</h1>
      <p className="mt-4 text-sm">
        Para proteger la tienda, cada inicio de sesión de {loaderData.email} pedirá también un código de una
        app de autenticación (Google Authenticator, Microsoft Authenticator, 1Password u otra).
      </p>
      <ol className="mt-6 list-decimal space-y-4 pl-5 text-sm">
        <li>
          Abre tu app de autenticación y escanea este código QR:
          <img
            src={loaderData.qr}
            alt="Código QR para agregar la cuenta a tu app de autenticación"
            width={200}
            height={200}
            className="mx-auto mt-3 rounded bg-white"
          />
          <p className="mt-3">Si no puedes escanearlo, escribe en la app esta clave:</p>
          <code
            data-testid="totp-secret"
            className="mt-1 block break-all rounded bg-white px-3 py-2 font-mono"
          >
            {loaderData.secret}
          </code>
        </li>
        <li>Escribe el código de 6 dígitos que muestra la app para la tienda.</li>
      </ol>
      <Form
        method="post"
        onSubmit={onSubmit}
        className="mt-6 space-y-5"
        aria-describedby={error ? "set-up-error" : undefined}
      >
        <AuthField
          ref={input}
          id="code"
          label="Código de 6 dígitos"
          code
          type="text"
          inputMode="numeric"
          required
          autoComplete="one-time-code"
          maxLength={20}
        />
        <AuthSubmit error={error} errorId="set-up-error" busy={busy} solving={solving}>
          Activar
        </AuthSubmit>
      </Form>
      <Form method="post" action="/logout" className="mt-6 text-center text-sm">
        <button type="submit" className="underline">
          Cancelar y cerrar sesión
        </button>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
