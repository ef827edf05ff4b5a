import { data, type HeadersFunction, type RouterContextProvider } from "react-router";
import { limitMessage } from "~/rate-limits/request-limits.server";
import { FIELDS, SIGN_UP_MESSAGES, SIGNED_UP_MESSAGE, type SignUpRefusal } from "~/waitlist/sign-up-input";
import { signUp } from "~/waitlist/waitlist.server";
import { limitRefusalContext } from "~/web/limit-refusal";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";

/** What the 'Avísame' form shows after a post. */
export type SignUpAnswer = { ok: true; message: string } | { ok: false; message: string; email: string };

const STATUS: Record<SignUpRefusal, number> = {
  correo_invalido: 400,
  sin_consentimiento: 400,
  drop_no_encontrado: 404,
  drop_no_proximo: 409,
};

/**
 * The action of an upcoming drop's pages (collection and product): reads the form, signs the
 * address up and maps the domain's reasons to a status and a Spanish sentence for the form.
 */
export async function waitlistSignUp(args: {
  request: Request;
  params: { dropId?: string };
  context: Readonly<RouterContextProvider>;
}) {
  const { request, params, context } = args;
  const form = await request.formData().catch(() => null);
  // Given back to refill the form after a refusal: no address has angle brackets, so none come back
  // (the data answer of a scripted form carries the text as it is).
  const typed = String(form?.get(FIELDS.email) ?? "")
    .slice(0, 320)
    .replace(/[<>]/g, "");
  const wait = context.get(limitRefusalContext);
  if (wait !== null) {
    return data<SignUpAnswer>(
      { ok: false, message: limitMessage(wait), email: typed },
      { status: 429, headers: { "Retry-After": String(wait), "Cache-Control": "no-store" } },
    );
  }
  const { database, mail } = context.get(servicesContext);
  const result = await signUp(database.db, {
    dropId: params.dropId ?? "",
    email: form?.get(FIELDS.email),
    consent: form?.get(FIELDS.consent),
    siteUrl: new URL(shopOrigin(context)).origin,
  });
  if (!result.ok) {
    return data<SignUpAnswer>(
      { ok: false, message: SIGN_UP_MESSAGES[result.reason], email: typed },
      { status: STATUS[result.reason], headers: { "Cache-Control": "no-store" } },
    );
  }
  if (result.outcome === "nueva" || result.outcome === "reenviada") mail.sendSoon();
  return data<SignUpAnswer>(
    { ok: true, message: SIGNED_UP_MESSAGE },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The page's headers after a sign-up post without JavaScript: the 429's Retry-After, and never cached. */
export const waitlistHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
