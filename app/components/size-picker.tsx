import type { OptionName } from "~/db/taxonomy";
import { SizeGuide } from "./size-guide";

export interface PickerValue {
  id: string;
  value: string;
  stock: number;
  /** Pieces of it in others' unpaid checkouts (counted when its stock is 0). */
  held: number;
}

/**
 * The sizes (or lengths) of a piece as a group of buttons: one chosen at a time, a sold-out one
 * shown and disabled ('Agotada', or 'Apartada' while someone's unpaid checkout holds it).
 */
export function SizePicker({
  option,
  values,
  chosen,
  onChoose,
  error,
}: {
  option: OptionName;
  values: PickerValue[];
  chosen: string | null;
  onChoose: (id: string) => void;
  /** 'Elige tu talla.' when 'Agregar' was pressed without one. */
  error: string | null;
}) {
  const gone =
    option === "Talla" ? { none: "agotada", held: "apartada" } : { none: "agotado", held: "apartado" };
  return (
    <fieldset aria-describedby={error ? "talla-error" : undefined}>
      <legend className="sr-only">{option}</legend>
      <div className="flex items-center justify-between gap-3">
        <span aria-hidden="true" className="text-sm font-medium">
          {option}
        </span>
        <SizeGuide option={option} />
      </div>
      <div className="flex flex-wrap gap-1.5 sm:gap-2">
        {values.map((v) => {
          const soldOut = v.stock <= 0;
          // Held by someone paying: it may come back, so it is not struck out like one sold for good.
          const held = soldOut && v.held > 0;
          return (
            <label
              key={v.id}
              className={`relative grid min-h-11 min-w-10 cursor-pointer place-items-center rounded border px-2 text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-cream has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold-700 ${
                held
                  ? "cursor-not-allowed border-dashed border-ink/40 text-ink/55"
                  : soldOut
                    ? "cursor-not-allowed border-ink/15 text-ink/45 line-through"
                    : "border-ink/30 bg-white"
              }`}
            >
              <input
                type="radio"
                name="talla"
                value={v.id}
                checked={chosen === v.id}
                disabled={soldOut}
                onChange={() => onChoose(v.id)}
                className="sr-only"
              />
              {v.value}
              {soldOut && <span className="sr-only"> {v.held > 0 ? gone.held : gone.none}</span>}
            </label>
          );
        })}
      </div>
      {values.some((v) => v.stock <= 0 && v.held > 0) && (
        <p className="mt-1 text-xs text-ink/70">
          Con borde punteado: {gone.held}s, pueden volver a estar disponibles.
        </p>
      )}
      {error && (
        <p id="talla-error" role="alert" className="mt-2 rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </fieldset>
  );
}
