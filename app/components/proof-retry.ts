import { type FormEvent, useEffect, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { PROOF_FIELD } from "~/auth/second-factor";
import { takeProofOfWork } from "~/cart/proof-of-work";

/**
 * A sign-in form answered "bring a proof of work" (an unknown device past its limits, decision
 * 32): the page solves one in the background (the checkout's own, app/cart/proof-of-work.ts) and
 * sends the same form again with it, once per press of the button. Without JavaScript the answer's
 * message stays on screen instead.
 */
export function useProofRetry(answer: object | undefined) {
  const submit = useSubmit();
  /** The form as last sent: sent again, with the proof. */
  const sent = useRef<FormData | null>(null);
  const [solving, setSolving] = useState(false);
  useEffect(() => {
    const form = sent.current;
    // One proof per press: asked again after sending one, the message shows.
    const asked = answer !== undefined && "proof" in answer && answer.proof === true;
    if (!asked || !form || form.has(PROOF_FIELD)) return;
    let current = true;
    setSolving(true);
    // Nothing is solved ahead: a sign-in needs a proof only now and then, and an admin page
    // must not keep computing after it.
    void takeProofOfWork(fetch, { again: false }).then((proof) => {
      if (!current) return;
      setSolving(false);
      if (!proof) return;
      const again = new FormData();
      for (const [name, value] of form) again.append(name, value);
      again.set(PROOF_FIELD, proof);
      sent.current = again;
      void submit(again, { method: "post" });
    });
    return () => {
      current = false;
    };
  }, [answer, submit]);
  return {
    /** The page is solving the proof (show that, not the refusal). */
    solving,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      sent.current = new FormData(event.currentTarget);
    },
  };
}
