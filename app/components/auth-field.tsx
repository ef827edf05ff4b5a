import { type ComponentProps, useEffect, useRef } from "react";

/**
 * The one field the sign-in pages empty after a refusal (the password, the code): after each
 * refused answer it is cleared and focused, ready to type again.
 */
export function useFieldClearedOnRefusal(answer: { error?: string | null; proof?: boolean } | undefined) {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Asked for a proof of work, the form is sent again as it was (see useProofRetry).
    if (!answer?.error || answer.proof || !field.current) return;
    field.current.value = "";
    field.current.focus();
  }, [answer]);
  return field;
}

type AuthFieldProps = Omit<ComponentProps<"input">, "id" | "name" | "className"> & {
  /** Also the field's name in the form. */
  id: string;
  label: string;
  /** A code to copy from the app: monospaced and spaced out. */
  code?: boolean;
};

/** A labelled field of the sign-in pages. */
export function AuthField({ id, label, code = false, ...input }: AuthFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={id}
        {...input}
        className={`mt-1 w-full rounded-lg border border-ink/20 bg-white px-3 py-2${code ? " font-mono tracking-widest" : ""}`}
      />
    </div>
  );
}

/**
 * The end of a sign-in form: the refusal, when there is one (`errorId` describes the form), and the
 * button. While `solving` a proof of work, says so instead.
 */
export function AuthSubmit({
  error,
  errorId,
  busy,
  solving = false,
  children,
}: {
  error: string | null | undefined;
  errorId: string;
  busy: boolean;
  solving?: boolean;
  children: string;
}) {
  return (
    <>
      {solving && (
        <p role="status" className="rounded-lg bg-sand px-4 py-3 text-sm">
          Verificando tu navegador antes de continuar. Puede tardar unos segundos…
        </p>
      )}
      {error && !solving && (
        <p id={errorId} role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy || solving}
        className="w-full rounded-full bg-ink px-6 py-3 font-medium text-cream disabled:opacity-60"
      >
        {busy ? "Verificando..." : children}
      </button>
    </>
  );
}
