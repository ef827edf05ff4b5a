import type { RouterContextProvider } from "react-router";
import { PROOF_FIELD } from "~/auth/second-factor";
import { browserIdContext } from "./client-address";

/** A proof is about 800 characters; anything far longer is no proof. */
const PROOF_MAX_CHARS = 4_000;

/**
 * Who is at the owner's door, as every sign-in step tells the sign-in (decision 32): the browser
 * (its signed cookie) and the proof of work its form brought, if any.
 */
export function signInDevice(
  context: Readonly<RouterContextProvider>,
  form: FormData | null,
): { browserId: string | null; proof: string | null } {
  const proof = String(form?.get(PROOF_FIELD) ?? "").slice(0, PROOF_MAX_CHARS);
  return { browserId: context.get(browserIdContext), proof: proof || null };
}
