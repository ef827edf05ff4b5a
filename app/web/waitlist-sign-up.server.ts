import { data, type HeadersFunction, type RouterContextProvider } from "react-router";
import { PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";
import { PROOF_MESSAGES, type ProofRefusal } from "~/rate-limits/proof-of-work.server";
import { limitMessage } from "~/rate-limits/request-limits.server";
import { askRestock } from "~/waitlist/restock.server";
import {
  RESTOCK_FIELDS,
  RESTOCK_LIST,
  RESTOCK_MESSAGES,
  RESTOCK_SIGNED_UP_MESSAGE,
  type RestockRefusal,
} from "~/waitlist/restock-input";
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

const RESTOCK_STATUS: Record<RestockRefusal, number> = {
  correo_invalido: 400,
  sin_consentimiento: 400,
  sin_talla: 400,
  pieza_no_encontrada: 404,
  pieza_disponible: 409,
  drop_no_activo: 409,
};

/**
 * The action of a drop's pages (collection and product): reads the form, signs the address up and
 * maps the domain's reasons to a status and a Spanish sentence for the form. On a product page, a
 * form with `aviso=pieza` asks for 'Avísame si vuelve' of the sold-out piece (or its `talla`,
 * decision 46); anything else is the drop's 'Avísame'. Both go through the same request limits
 * and proof of work.
 */
export async function waitlistSignUp(args: {
  request: Request;
  params: { dropId?: string; productId?: string };
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
  const siteUrl = new URL(shopOrigin(context)).origin;
  const from = { address: context.get(clientAddressContext), proven };
  if (params.productId !== undefined && form?.get(RESTOCK_FIELDS.list) === RESTOCK_LIST) {
    const size = form.get(RESTOCK_FIELDS.size);
    const asked = await askRestock(database.db, {
      productId: params.productId,
      optionId: typeof size === "string" ? size : null,
      email: form.get(FIELDS.email),
      consent: form.get(FIELDS.consent),
      siteUrl,
      from,
    });
    if (!asked.ok) {
      return data<SignUpAnswer>(
        { ok: false, message: RESTOCK_MESSAGES[asked.reason], email: typed },
        { status: RESTOCK_STATUS[asked.reason], headers: { "Cache-Control": "no-store" } },
      );
    }
    if (asked.outcome === "nueva" || asked.outcome === "reenviada") mail.sendSoon();
    return data<SignUpAnswer>(
      { ok: true, message: RESTOCK_SIGNED_UP_MESSAGE },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  const result = await signUp(database.db, {
    dropId: params.dropId ?? "",
    email: form?.get(FIELDS.email),
    consent: form?.get(FIELDS.consent),
    siteUrl,
    from,
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
