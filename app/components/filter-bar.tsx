import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigate, useSubmit } from "react-router";
import {
  activeFilterCount,
  collectionSearch,
  DEFAULT_SORT,
  filtersToSearchParams,
  NO_FILTERS,
  type OptionChoices,
  PRICE_RANGES,
  type ProductFilters,
  parseFilters,
  parseSort,
  SEARCH_KEYS,
  SORT_KEY,
  SORTS,
  type SortId,
} from "~/catalogue/filters";
import { CATEGORIAS, MATERIALES } from "~/db/taxonomy";
import { useChoicesBeforeHydration, useHydrated } from "./hydration";

// Invoker commands (`commandfor`/`command`) open and close a <dialog> with no script at all.
declare module "react" {
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close";
  }
}

const CATEGORY_LABELS: Record<string, string> = {
  Pulsera: "Pulseras",
  Collar: "Collares",
  Arete: "Aretes",
  Anillo: "Anillos",
};

const SHEET_ID = "filtros-hoja";
const DESKTOP = "(min-width: 64rem)";

// 44 px tall on phones (a thumb's target); the denser desktop panel keeps the compact chip.
const CHIP =
  "inline-flex min-h-11 cursor-pointer select-none items-center rounded-full border border-ink/20 px-3 py-1.5 text-sm lg:min-h-0 has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-cream has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold-700";

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
 * The filter groups and the order to keep, inside either form (desktop panel or phone sheet).
 * 'Talla' and 'Largo' appear only where the collection's pieces come in sizes or lengths.
 */
function FilterFields({
  filters,
  choices,
  sort,
}: {
  filters: ProductFilters;
  choices: OptionChoices;
  sort: SortId;
}) {
  return (
    <>
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
      {choices.tallas.length > 0 && (
        <ChipGroup
          legend="Talla"
          name={SEARCH_KEYS.tallas}
          options={choices.tallas.map((t) => ({ value: t, label: t }))}
          chosen={filters.tallas}
        />
      )}
      {choices.largos.length > 0 && (
        <ChipGroup
          legend="Largo"
          name={SEARCH_KEYS.largos}
          options={choices.largos.map((l) => ({ value: l, label: l }))}
          chosen={filters.largos}
        />
      )}
      <label className="flex min-h-11 items-center gap-2 text-sm lg:min-h-0">
        <input
          type="checkbox"
          name={SEARCH_KEYS.soloDisponibles}
          value="1"
          defaultChecked={filters.soloDisponibles}
          className="size-4 accent-gold-700"
        />
        Solo disponibles
      </label>
      {/* Changing the filters keeps the order. */}
      {sort !== DEFAULT_SORT && <input type="hidden" name={SORT_KEY} value={sort} />}
    </>
  );
}

/** Ticks exactly the applied filters (after a load, or when the sheet is dismissed unapplied). */
function showApplied(form: HTMLFormElement | null, filters: ProductFilters) {
  if (!form) return;
  const applied = filtersToSearchParams(filters);
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
    const on = applied.getAll(input.name).includes(input.value);
    input.defaultChecked = on;
    input.checked = on;
  }
}

/**
 * The collection's filters and order. Both are plain GET forms: the view lives in the URL, can be
 * shared, and works without JavaScript. On phones the filters wait behind 'Filtrar (N)' in a modal
 * sheet (a native <dialog>: focus moves in, Escape closes, focus comes back) and apply with
 * 'Aplicar'; from `lg` up they stay open above the grid and apply at each change.
 */
export function FilterBar({
  filters,
  choices,
  sort,
  resultCount,
  carried = [],
}: {
  filters: ProductFilters;
  /** The sizes and lengths the collection's pieces come in. */
  choices: OptionChoices;
  sort: SortId;
  resultCount: number;
  /** Parameters of the address that are not filters and stay (the owner's preview). */
  carried?: readonly (readonly [string, string])[];
}) {
  const submit = useSubmit();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const sheet = useRef<HTMLDialogElement>(null);
  const sheetForm = useRef<HTMLFormElement>(null);
  const panelForm = useRef<HTMLFormElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const count = activeFilterCount(filters);
  const clearHref = { search: withCarried(collectionSearch(NO_FILTERS, sort), carried) };
  const appliedKey = collectionSearch(filters, sort);
  // The order picked shows at once, while its page loads (then the address says it).
  const [pickedSort, setPickedSort] = useState<{ over: string; sort: SortId } | null>(null);
  const shownSort = pickedSort?.over === appliedKey ? pickedSort.sort : sort;
  // Boxes ticked before the page's code ran stay ticked over this view until theirs comes.
  const keptOver = useRef<string | null>(null);
  // A box ticked in the open panel or an order picked before the page's code ran (their buttons
  // not pressed yet) apply then, as they do after; read before the panel is set to what applies.
  const bar = useChoicesBeforeHydration<HTMLDivElement>((element) => {
    const select = element.querySelector<HTMLSelectElement>(`select[name="${SORT_KEY}"]`);
    const picked = select ? parseSort(new URLSearchParams([[SORT_KEY, select.value]])) : sort;
    const panel = panelForm.current;
    const ticked = panel ? parseFilters(formParams(panel)) : filters;
    const search = collectionSearch(ticked, picked);
    if (search === appliedKey) return;
    keptOver.current = appliedKey;
    setPickedSort({ over: appliedKey, sort: picked });
    navigate({ search: withCarried(search, carried) }, { preventScrollReset: true, replace: true });
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: appliedKey stands for `filters`
  useEffect(() => {
    if (keptOver.current === appliedKey) return;
    keptOver.current = null;
    showApplied(panelForm.current, filters);
    // An open sheet holds choices not yet applied; it is brought back in line when dismissed.
    if (!sheet.current?.open) showApplied(sheetForm.current, filters);
  }, [appliedKey]);

  // A phone turned into a wide screen: the sheet is not shown there, so it may not stay modal.
  useEffect(() => {
    const wide = window.matchMedia(DESKTOP);
    const onChange = () => {
      if (wide.matches) sheet.current?.close();
    };
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, []);

  const open = () => {
    const dialog = sheet.current;
    // Browsers without invoker commands open it here.
    if (dialog && !dialog.open && !("command" in HTMLButtonElement.prototype)) dialog.showModal();
  };
  // Closed without 'Aplicar': what was ticked meanwhile is forgotten.
  const dismiss = () => {
    showApplied(sheetForm.current, filters);
    sheet.current?.close();
  };

  return (
    <div ref={bar}>
      <Form
        ref={panelForm}
        method="get"
        preventScrollReset
        onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
        className="hidden space-y-4 rounded-lg bg-sand/40 p-4 lg:block"
        aria-label="Filtros"
      >
        <FilterFields filters={filters} choices={choices} sort={sort} />
        <CarriedFields carried={carried} />
        {!hydrated && (
          <button type="submit" className="rounded-full bg-ink px-4 py-1.5 text-sm text-cream">
            Aplicar filtros
          </button>
        )}
      </Form>

      <div className="mt-0 flex flex-wrap items-center gap-x-4 gap-y-2 lg:mt-4">
        <button
          ref={trigger}
          type="button"
          commandfor={SHEET_ID}
          command="show-modal"
          aria-haspopup="dialog"
          onClick={open}
          className="inline-flex min-h-11 items-center gap-2 rounded-full border border-ink px-4 text-sm font-medium lg:hidden"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor">
            <path strokeWidth="1.8" strokeLinecap="round" d="M4 7h16M7 12h10M10 17h4" />
          </svg>
          {count > 0 ? `Filtrar (${count})` : "Filtrar"}
        </button>
        <SortForm
          filters={filters}
          sort={shownSort}
          hydrated={hydrated}
          carried={carried}
          onSort={(next) => {
            setPickedSort({ over: appliedKey, sort: next });
            navigate(
              { search: withCarried(collectionSearch(filters, next), carried) },
              { preventScrollReset: true, replace: true },
            );
          }}
        />
        <p className="text-sm text-ink/70" aria-live="polite">
          {resultCount} {resultCount === 1 ? "pieza" : "piezas"}
        </p>
        {count > 0 && (
          <Link to={clearHref} preventScrollReset replace className="text-sm underline underline-offset-4">
            Quitar filtros
          </Link>
        )}
      </div>

      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click closes on the backdrop; the keyboard closes with Escape, built into <dialog> */}
      <dialog
        ref={sheet}
        id={SHEET_ID}
        aria-labelledby="filtros-titulo"
        className="filter-sheet lg:hidden"
        onCancel={() => showApplied(sheetForm.current, filters)}
        onClose={() => trigger.current?.focus()}
        onClick={(event) => {
          // A click on the backdrop lands on the dialog element itself.
          if (event.target === event.currentTarget) dismiss();
        }}
      >
        <Form
          ref={sheetForm}
          method="get"
          preventScrollReset
          onSubmit={(event) => {
            event.preventDefault();
            submit(event.currentTarget, { preventScrollReset: true, replace: true });
            sheet.current?.close();
          }}
          className="flex max-h-[85dvh] flex-col"
        >
          <div className="flex items-center justify-between border-b border-sand px-5 py-3">
            <h2 id="filtros-titulo" className="font-serif text-xl">
              Filtros
            </h2>
            <button
              type="button"
              commandfor={SHEET_ID}
              command="close"
              onClick={dismiss}
              aria-label="Cerrar filtros"
              className="grid size-11 place-items-center rounded-full text-2xl leading-none"
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div className="space-y-5 overflow-y-auto px-5 py-4">
            <FilterFields filters={filters} choices={choices} sort={sort} />
            <CarriedFields carried={carried} />
          </div>
          <div className="flex items-center justify-between gap-4 border-t border-sand px-5 py-3">
            <Link
              to={clearHref}
              preventScrollReset
              replace
              onClick={() => sheet.current?.close()}
              className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
            >
              Quitar filtros
            </Link>
            <button
              type="submit"
              className="min-h-11 rounded-full bg-ink px-6 text-sm font-medium text-cream"
            >
              Aplicar
            </button>
          </div>
        </Form>
      </dialog>
    </div>
  );
}

/** What a form would send, as an address's parameters (its text fields only). */
function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string") params.append(name, value);
  return params;
}

/** A filter or order address with the parameters that stay added (a GET form replaces the whole query). */
function withCarried(search: string, carried: readonly (readonly [string, string])[]): string {
  if (carried.length === 0) return search;
  const params = new URLSearchParams(search);
  for (const [name, value] of carried) params.set(name, value);
  return `?${params}`;
}

function CarriedFields({ carried }: { carried: readonly (readonly [string, string])[] }) {
  return carried.map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/** The order, with the applied filters carried along; with JavaScript it applies on change. */
function SortForm(props: {
  filters: ProductFilters;
  sort: SortId;
  hydrated: boolean;
  carried: readonly (readonly [string, string])[];
  /** With JavaScript: an order chosen (shown at once; its page loads). */
  onSort: (sort: SortId) => void;
}) {
  const carried = [...filtersToSearchParams(props.filters).entries(), ...props.carried];
  return (
    <Form method="get" preventScrollReset className="ml-auto flex flex-wrap items-center gap-2 lg:order-last">
      {carried.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="orden" className="text-sm text-ink/70">
        Ordenar
      </label>
      <select
        id="orden"
        name={SORT_KEY}
        value={props.sort}
        onChange={(event) => props.onSort(event.currentTarget.value as SortId)}
        className="min-h-11 rounded-full border border-ink/20 bg-cream px-3 text-sm lg:min-h-9"
      >
        {SORTS.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
      {!props.hydrated && (
        <button type="submit" className="min-h-11 rounded-full border border-ink px-3 text-sm">
          Ordenar
        </button>
      )}
    </Form>
  );
}
