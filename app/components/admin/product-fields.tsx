import { useId } from "react";
import { CATEGORIAS, MATERIALES, MAX_EXTRA_IMAGES } from "~/db/taxonomy";
import type { ProductFormValues } from "~/drops-desk/form-values";
import { Field, Select } from "./form-fields";
import { ExtraImages, MediaSlot } from "./media-picker";
import { MetalFactFields } from "./metal-fact-fields";
import { OptionFields, optionStockSum, waitingWords } from "./option-fields";

/**
 * Beside a stock: the confirmed 'Avísame si vuelve' requests it would answer, one per piece added
 * while the drop is on sale (an ended drop tells nobody: decision 46).
 */
function waitingText(n: number): string {
  return `${waitingWords(n)} que vuelva ('Avísame si vuelve'): mientras el drop esté a la venta, cada pieza que sumes avisa a una, en el orden en que lo pidieron.`;
}

/** A sized product's stock: the sum of its sizes', shown, never typed (nor sent: the server adds them). */
function StockSum({ product: p }: { product: ProductFormValues }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        Stock (piezas)
      </label>
      <input
        id={id}
        readOnly
        value={optionStockSum(p.options)}
        aria-describedby={`${id}-hint`}
        className="mt-1 min-h-11 w-full rounded border border-ink/10 bg-sand/30 px-3"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-ink/70">
        La suma de {p.optionName === "Largo" ? "los largos" : "las tallas"}.
      </p>
    </div>
  );
}

/** One product of the drop form: its fields, photos, and the buttons that move or remove it. */
export function ProductFields({
  product: p,
  index: i,
  count,
  dropId,
  onChange,
  onMove,
  onRemove,
  err,
  onBusy,
}: {
  product: ProductFormValues;
  /** Its place in the list (0 first): names its fields `products[i].…`. */
  index: number;
  /** How many products the form has. */
  count: number;
  dropId: string;
  onChange: (change: Partial<ProductFormValues>) => void;
  /** Moves it to that place. */
  onMove: (to: number) => void;
  onRemove: () => void;
  err: (key: string) => string | undefined;
  /** Counts uploads under way (+1 when one starts, -1 when it ends). */
  onBusy: (delta: number) => void;
}) {
  const n = i + 1;
  const at = (key: string) => `products[${i}].${key}`;
  const perr = (key: string) => err(`products.${i}.${key}`);
  return (
    <fieldset className="space-y-4 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <legend className="px-1 font-serif text-xl">
        Producto {n}
        {p.name ? `: ${p.name}` : ""}
      </legend>
      <input type="hidden" name={at("id")} value={p.id} />
      <input type="hidden" name={at("stockLoaded")} value={p.stockLoaded} />
      <Field
        label="Nombre"
        name={at("name")}
        value={p.name}
        onChange={(v) => onChange({ name: v })}
        error={perr("name")}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Precio (MXN)"
          name={at("price")}
          inputMode="decimal"
          value={p.price}
          onChange={(v) => onChange({ price: v })}
          error={perr("price")}
        />
        {p.optionName ? (
          <StockSum product={p} />
        ) : (
          <Field
            label="Stock (piezas)"
            name={at("stock")}
            inputMode="numeric"
            value={p.stock}
            onChange={(v) => onChange({ stock: v })}
            error={perr("stock")}
          />
        )}
        <Select
          label="Categoría"
          name={at("categoria")}
          value={p.categoria}
          onChange={(v) => onChange({ categoria: v })}
          options={CATEGORIAS.map((c) => ({ value: c, label: c }))}
          error={perr("categoria")}
        />
        <Select
          label="Material"
          name={at("material")}
          value={p.material}
          onChange={(v) => onChange({ material: v })}
          options={MATERIALES.map((m) => ({ value: m, label: m }))}
          error={perr("material")}
        />
      </div>
      <OptionFields product={p} n={n} at={at} perr={perr} onChange={onChange} />
      <MetalFactFields product={p} at={at} perr={perr} onChange={onChange} />
      {p.held > 0 && (
        <p className="text-sm text-ink/75">
          {p.held === 1 ? "1 pieza apartada" : `${p.held} piezas apartadas`} en pagos que aún no terminan: no
          cuentan en el stock y vuelven si el pago no se completa.
        </p>
      )}
      {(p.waiting ?? 0) > 0 && <p className="text-sm text-ink/75">{waitingText(p.waiting ?? 0)}</p>}
      <Field
        label="Descripción"
        name={at("description")}
        value={p.description}
        onChange={(v) => onChange({ description: v })}
        error={perr("description")}
        multiline
      />
      <MediaSlot
        onBusy={onBusy}
        dropId={dropId}
        kind="image"
        name={at("imageId")}
        altName={at("imageAlt")}
        defaultAlt={p.name}
        label={`Imagen principal del producto ${n}`}
        value={p.image}
        onChange={(m) => onChange({ image: m })}
        error={perr("imageId")}
      />
      <ExtraImages
        onBusy={onBusy}
        dropId={dropId}
        name={at("extraImageIds")}
        altName={at("extraImageAlts")}
        defaultAlt={p.name}
        label={`Imágenes extra del producto ${n}`}
        values={p.extras}
        onChange={(extras) => onChange({ extras })}
        max={MAX_EXTRA_IMAGES}
      />
      <div className="flex flex-wrap gap-2 border-t border-sand pt-4">
        <button
          type="button"
          disabled={i === 0}
          onClick={() => onMove(i - 1)}
          className="min-h-11 rounded-full border border-ink px-4 text-sm disabled:opacity-30"
        >
          Subir producto {n}
        </button>
        <button
          type="button"
          disabled={i === count - 1}
          onClick={() => onMove(i + 1)}
          className="min-h-11 rounded-full border border-ink px-4 text-sm disabled:opacity-30"
        >
          Bajar producto {n}
        </button>
        <button
          type="button"
          onClick={onRemove}
          className="min-h-11 rounded-full border border-red-800 px-4 text-sm text-red-800"
        >
          Quitar producto {n}
        </button>
      </div>
    </fieldset>
  );
}
