import { data, type HeadersFunction, type RouterContextProvider } from "react-router";
import { PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";
import { PROOF_MESSAGES, type ProofRefusal } from "~/rate-limits/proof-of-work.server";
import { limitMessage } from "~/rate-limits/request-limits.server";
import { FIELDS, SIGN_UP_MESSAGES, SIGNED_UP_MESSAGE, type SignUpRefusal } from "~/waitlist/sign-up-input";
import { signUp } from "~/waitlist/waitlist.server";
import { browserIdContext, clientAddressContext } from "~/web/client-address";
import { limitRefusalContext } from "~/web/limit-refusal";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";

/**
 * What the 'Avísame' form shows after a post. `reto`: the proof of work was refused (why): the
 * page solves a new one and sends the form once more.
 */
export type SignUpAnswer =
  | { ok: true; message: string }
  | { ok: false; message: string; email: string; reto?: ProofRefusal };

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
  const { database, mail, proofOfWork } = context.get(servicesContext);
  // The proof of work (decision 31): with JavaScript the page sends one; a form posted without
  // (no JavaScript) is still taken, under the tighter caps of sign-ups without a proof. One sent
  // and not good (forged, spent, stale, another browser's) is refused in Spanish: the page solves
  // another and sends again, and a script learns nothing it could not by sending none.
  let proven = true;
  if (proofOfWork) {
    const sent = form?.get(FIELDS.proof);
    const proof = typeof sent === "string" && sent !== "" ? sent : request.headers.get("x-altcha");
    if (proof) {
      const checked = await proofOfWork.verify(proof, context.get(browserIdContext));
      if (!checked.ok) {
        return data<SignUpAnswer>(
          { ok: false, message: PROOF_MESSAGES[checked.reason], email: typed, reto: checked.reason },
          {
            status: 400,
            headers: { [PROOF_REFUSED_HEADER]: checked.reason, "Cache-Control": "no-store" },
          },
        );
      }
    } else {
      proven = false;
    }
  }
  const result = await signUp(database.db, {
    dropId: params.dropId ?? "",
    email: form?.get(FIELDS.email),
    consent: form?.get(FIELDS.consent),
    siteUrl: new URL(shopOrigin(context)).origin,
    from: { address: context.get(clientAddressContext), proven },
  });
  if (!result.ok) {
    return data<SignUpAnswer>(
      { ok: false, message: SIGN_UP_MESSAGES[result.reason], email: typed },
      { status: STATUS[result.reason], headers: { "Cache-Control": "no-store" } },
    );
  }
  if (result.outcome === "nueva" || result.outcome === "reenviada") mail.sendSoon();
  // Sent or not (a cap said no: "limitada"), the same answer, byte for byte: nobody learns from it
  // whether an address was on the list or whether the shop mailed it.
  return data<SignUpAnswer>(
    { ok: true, message: SIGNED_UP_MESSAGE },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The page's headers after a sign-up post: the 429's Retry-After, a refused proof's reason, and
 * never cached.
 */
export const waitlistHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  for (const name of ["Retry-After", PROOF_REFUSED_HEADER, "Cache-Control"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
