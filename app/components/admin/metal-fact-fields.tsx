import { KARATS } from "~/catalogue/metal";
import type { ProductFormValues } from "~/drops-desk/form-values";
import { Field, Select } from "./form-fields";

/**
 * One product's facts on the drop form: 'Quilates', 'Peso (g)', 'Edición limitada (piezas)' and
 * 'Piedras' (each optional).
 */
export function MetalFactFields({
  product: p,
  at,
  perr,
  onChange,
}: {
  product: ProductFormValues;
  /** The field's form name (`products[i].karat`). */
  at: (key: string) => string;
  /** The field's error, if any. */
  perr: (key: string) => string | undefined;
  onChange: (change: Partial<ProductFormValues>) => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <Select
        label="Quilates"
        name={at("karat")}
        value={p.karat}
        onChange={(v) => onChange({ karat: v })}
        options={KARATS.map((k) => ({ value: String(k), label: `${k} k` }))}
        error={perr("karat")}
        empty="—"
      />
      <Field
        label="Peso (g)"
        name={at("weight")}
        inputMode="decimal"
        value={p.weight}
        onChange={(v) => onChange({ weight: v })}
        error={perr("weight")}
      />
      <Field
        label="Edición limitada (piezas)"
        name={at("edition")}
        inputMode="numeric"
        value={p.edition}
        onChange={(v) => onChange({ edition: v })}
        error={perr("edition")}
        hint="Vacío si no va numerada."
      />
      <div className="col-span-2 sm:col-span-1">
        <Field
          label="Piedras"
          name={at("stones")}
          value={p.stones}
          onChange={(v) => onChange({ stones: v })}
          error={perr("stones")}
          hint="Vacío si no lleva."
        />
      </div>
    </div>
  );
}
