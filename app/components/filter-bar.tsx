import { Form, useSubmit } from "react-router";
import { PRICE_RANGES, type ProductFilters, SEARCH_KEYS } from "~/catalogue/filters";
import { CATEGORIAS, MATERIALES } from "~/catalogue/taxonomy";

const CATEGORY_LABELS: Record<string, string> = {
  Pulsera: "Pulseras",
  Collar: "Collares",
  Arete: "Aretes",
  Anillo: "Anillos",
};

const CHIP =
  "cursor-pointer select-none rounded-full border border-ink/20 px-3 py-1.5 text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-cream has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold-700";

/** One filter group: a checkbox per option, drawn as a chip that is filled when chosen. */
function ChipGroup(props: {
  legend: string;
  name: string;
  options: readonly { value: string; label: string }[];
  chosen: readonly string[];
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">{props.legend}</legend>
      <div className="flex flex-wrap gap-2">
        {props.options.map((o) => (
          <label key={o.value} className={CHIP}>
            <input
              type="checkbox"
              name={props.name}
              value={o.value}
              defaultChecked={props.chosen.includes(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The filter bar is a plain GET form: the filters live in the URL, so a filtered view can be shared
 * and the form works without JavaScript. With JavaScript each change applies at once.
 */
export function FilterBar({ filters, resultCount }: { filters: ProductFilters; resultCount: number }) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      preventScrollReset
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
      className="space-y-4 rounded-lg bg-sand/40 p-4"
      aria-label="Filtros"
    >
      <ChipGroup
        legend="Categoría"
        name={SEARCH_KEYS.categorias}
        options={CATEGORIAS.map((c) => ({ value: c, label: CATEGORY_LABELS[c] ?? c }))}
        chosen={filters.categorias}
      />
      <ChipGroup
        legend="Material"
        name={SEARCH_KEYS.materiales}
        options={MATERIALES.map((m) => ({ value: m, label: m }))}
        chosen={filters.materiales}
      />
      <ChipGroup
        legend="Precio"
        name={SEARCH_KEYS.precios}
        options={PRICE_RANGES.map((r) => ({ value: r.id, label: r.label }))}
        chosen={filters.precios}
      />
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={SEARCH_KEYS.soloDisponibles}
            value="1"
            defaultChecked={filters.soloDisponibles}
            className="size-4 accent-gold-700"
          />
          Solo disponibles
        </label>
        <button type="submit" className="rounded-full bg-ink px-4 py-1.5 text-sm text-cream">
          Filtrar
        </button>
        <a href="?" className="text-sm underline">
          Quitar filtros
        </a>
        <p className="ml-auto text-sm text-ink/70" aria-live="polite">
          {resultCount} {resultCount === 1 ? "pieza" : "piezas"}
        </p>
      </div>
    </Form>
  );
}
