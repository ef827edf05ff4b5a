import { Form, useSubmit } from "react-router";
import { PRICE_RANGES, type ProductFilters } from "~/catalogue/filters";
import { CATEGORIAS, MATERIALES } from "~/catalogue/taxonomy";

const CATEGORY_LABELS: Record<string, string> = {
  Pulsera: "Pulseras",
  Collar: "Collares",
  Arete: "Aretes",
  Anillo: "Anillos",
};

/**
 * The filter bar is a plain GET form: the filters live in the URL, so a filtered view can be shared
 * and the form works without JavaScript. With JavaScript each change applies at once.
 */
export function FilterBar({ filters, resultCount }: { filters: ProductFilters; resultCount: number }) {
  const submit = useSubmit();
  const group = "flex flex-wrap gap-2";
  const chip =
    "cursor-pointer select-none rounded-full border border-ink/20 px-3 py-1.5 text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-cream has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold-700";
  return (
    <Form
      method="get"
      preventScrollReset
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
      className="space-y-4 rounded-lg bg-sand/40 p-4"
      aria-label="Filtros"
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Categoría</legend>
        <div className={group}>
          {CATEGORIAS.map((c) => (
            <label key={c} className={chip}>
              <input
                type="checkbox"
                name="categoria"
                value={c}
                defaultChecked={filters.categorias.includes(c)}
                className="sr-only"
              />
              {CATEGORY_LABELS[c]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Material</legend>
        <div className={group}>
          {MATERIALES.map((m) => (
            <label key={m} className={chip}>
              <input
                type="checkbox"
                name="material"
                value={m}
                defaultChecked={filters.materiales.includes(m)}
                className="sr-only"
              />
              {m}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Precio</legend>
        <div className={group}>
          {PRICE_RANGES.map((r) => (
            <label key={r.id} className={chip}>
              <input
                type="checkbox"
                name="precio"
                value={r.id}
                defaultChecked={filters.precios.includes(r.id)}
                className="sr-only"
              />
              {r.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="disponibles"
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
