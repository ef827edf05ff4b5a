import type { ProductFormValues } from "~/drops-desk/form-values";
import {
  MAX_OPTION_VALUES,
  OPTION_NAMES,
  type OptionName,
  type OptionValueFormValues,
  optionWords,
} from "~/drops-desk/option-input";
import { Field, Select } from "./form-fields";

/** Keys for values added on the page (React needs a stable key; ids come only after saving). */
let nextKey = 0;
const newValue = (): OptionValueFormValues => ({
  key: `valor-${++nextKey}`,
  id: "",
  value: "",
  stock: "",
  stockLoaded: "",
  held: 0,
});

/** The pieces of a product with sizes: the sum of its sizes' stock (those typed as whole numbers). */
export function optionStockSum(options: readonly OptionValueFormValues[]): number {
  return options.reduce((sum, v) => sum + (/^\d{1,5}$/.test(v.stock.trim()) ? Number(v.stock) : 0), 0);
}

const HINTS: Record<OptionName, string> = {
  Talla: "Tallas de anillo de 3 a 12, con medias como 6.5. Cada talla con sus piezas.",
  Largo: "Largos en centímetros, como 45 cm. Cada largo con sus piezas.",
};

/** "1 persona espera", "3 personas esperan": the 'Avísame si vuelve' requests waiting for a stock. */
export function waitingWords(n: number): string {
  return n === 1 ? "1 persona espera" : `${n} personas esperan`;
}

/**
 * A product's option on the drop form: 'Sin tallas', 'Talla' or 'Largo', and then its values,
 * each with its own stock ('Piezas'), with buttons to add and remove them. The product's stock is
 * their sum (shown, not typed, by ProductFields).
 */
export function OptionFields({
  product: p,
  n,
  at,
  perr,
  onChange,
}: {
  product: ProductFormValues;
  /** The product's number on the form (1 first). */
  n: number;
  /** The field's form name (`products[i].optionName`). */
  at: (key: string) => string;
  /** The field's error, if any. */
  perr: (key: string) => string | undefined;
  onChange: (change: Partial<ProductFormValues>) => void;
}) {
  const name = p.optionName;
  const setValue = (j: number, change: Partial<OptionValueFormValues>) =>
    onChange({ options: p.options.map((v, k) => (k === j ? { ...v, ...change } : v)) });
  const choose = (chosen: string) => {
    const optionName = (OPTION_NAMES as readonly string[]).includes(chosen) ? (chosen as OptionName) : "";
    // A first size row to fill in; a product going back to no sizes keeps them until saved.
    const options = optionName && p.options.length === 0 ? [newValue()] : p.options;
    // Without sizes its stock is typed again, starting from what the sizes added up to.
    const stock = optionName === "" && p.optionName !== "" ? String(optionStockSum(p.options)) : p.stock;
    onChange({ optionName, options, stock });
  };
  return (
    <div className="space-y-3">
      <Select
        label="Tallas o largos"
        name={at("optionName")}
        value={name}
        onChange={choose}
        options={OPTION_NAMES.map((o) => ({ value: o, label: o }))}
        error={perr("optionName")}
        empty="Sin tallas"
      />
      {name !== "" && (
        <OptionValues product={p} name={name} n={n} at={at} perr={perr} onChange={onChange} set={setValue} />
      )}
    </div>
  );
}

function OptionValues({
  product: p,
  name,
  n,
  at,
  perr,
  onChange,
  set,
}: {
  product: ProductFormValues;
  name: OptionName;
  n: number;
  at: (key: string) => string;
  perr: (key: string) => string | undefined;
  onChange: (change: Partial<ProductFormValues>) => void;
  set: (j: number, change: Partial<OptionValueFormValues>) => void;
}) {
  const words = optionWords(name);
  const listError = perr("options");
  return (
    <div className="space-y-2 rounded-lg border border-sand p-3">
      <p className="text-xs text-ink/70">{HINTS[name]}</p>
      {p.options.map((v, j) => {
        const label = `${name} ${v.value.trim() || j + 1}`;
        return (
          <fieldset key={v.key ?? v.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <legend className="sr-only">
              {label} del producto {n}
            </legend>
            <input type="hidden" name={at(`options[${j}].id`)} value={v.id} />
            <input type="hidden" name={at(`options[${j}].stockLoaded`)} value={v.stockLoaded} />
            <Field
              label={name}
              name={at(`options[${j}].value`)}
              value={v.value}
              onChange={(value) => set(j, { value })}
              error={perr(`options.${j}.value`)}
            />
            <Field
              label="Piezas"
              name={at(`options[${j}].stock`)}
              inputMode="numeric"
              value={v.stock}
              onChange={(stock) => set(j, { stock })}
              error={perr(`options.${j}.stock`)}
              hint={
                [
                  v.held > 0 ? `${v.held} apartada${v.held === 1 ? "" : "s"} en pagos sin terminar.` : "",
                  (v.waiting ?? 0) > 0 ? `${waitingWords(v.waiting ?? 0)} que vuelva.` : "",
                ]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
            />
            <button
              type="button"
              onClick={() => onChange({ options: p.options.filter((_, k) => k !== j) })}
              className="mt-6 min-h-11 rounded-full border border-red-800 px-3 text-sm text-red-800"
            >
              Quitar<span className="sr-only"> {label}</span>
            </button>
          </fieldset>
        );
      })}
      {listError && <p className="text-sm text-red-800">{listError}</p>}
      {p.options.length < MAX_OPTION_VALUES && (
        <button
          type="button"
          onClick={() => onChange({ options: [...p.options, newValue()] })}
          className="min-h-11 rounded-full border border-ink px-4 text-sm"
        >
          Agregar {words.noun}
        </button>
      )}
    </div>
  );
}
