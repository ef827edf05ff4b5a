import { useId } from "react";

/** The look of every input and select of the admin's forms. */
const field = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";

/** A labelled input or textarea with its error under it. */
export function Field({
  label,
  name,
  value,
  onChange,
  error,
  type = "text",
  multiline,
  inputMode,
  hint,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: "text" | "date" | "time";
  multiline?: boolean;
  inputMode?: "decimal" | "numeric";
  /** A line under the field that says what it does. */
  hint?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  const common = {
    id,
    name,
    value,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {multiline ? (
        <textarea
          {...common}
          rows={3}
          onChange={(e) => onChange(e.target.value)}
          className={`${field} py-2`}
        />
      ) : (
        <input
          {...common}
          type={type}
          // A time to the second: a drop opens and closes at an exact second (the spec's timestamps).
          step={type === "time" ? 1 : undefined}
          inputMode={inputMode}
          onChange={(e) => onChange(e.target.value)}
          className={field}
        />
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-ink/70">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled select with its error under it; the first option (empty) asks to choose. */
export function Select({
  label,
  name,
  value,
  onChange,
  options,
  error,
  empty = "Elige…",
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  error?: string;
  /** What the empty first option reads. */
  empty?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={field}
      >
        <option value="">{empty}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
