import { useEffect, useId, useRef, useState } from "react";
import { Form } from "react-router";
import { CATEGORIAS, MATERIALES, MAX_EXTRA_IMAGES } from "~/db/taxonomy";
import {
  type DropFormValues,
  emptyProduct,
  MAX_PRODUCTS,
  type ProductFormValues,
} from "~/drops-desk/drop-input";
import { ExtraImages, MediaSlot } from "./media-picker";

export interface DropFormErrors {
  fields: Record<string, string>;
  first: string;
}

/** Keys for products added on the page (React needs a stable key; ids come only after saving). */
let nextKey = 0;
const newKey = () => `nuevo-${++nextKey}`;

const field = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";
const STATUS_OPTIONS = [
  { value: "proximamente", label: "Próximamente" },
  { value: "activa", label: "Activa" },
  { value: "archivada", label: "Archivada" },
];

/** A labelled input or textarea with its error under it. */
function Field({
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

function Select({
  label,
  name,
  value,
  onChange,
  options,
  error,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  error?: string;
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
        <option value="">Elige…</option>
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

/**
 * The drop form (create and edit). Everything typed lives in the page, so a refusal from the
 * server keeps it; photos upload as they are chosen, into the drop's folder.
 */
export function DropForm({
  initial,
  mode,
  errors,
  busy,
  notice,
}: {
  initial: DropFormValues;
  mode: "create" | "edit";
  errors?: DropFormErrors;
  busy: boolean;
  notice?: string | null;
}) {
  const [drop, setDrop] = useState(initial);
  const [products, setProducts] = useState(() =>
    initial.products.map((p) => ({ ...p, key: p.id || newKey() })),
  );
  const alertRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (errors) alertRef.current?.focus();
  }, [errors]);
  const set =
    <K extends keyof DropFormValues>(key: K) =>
    (value: DropFormValues[K]) =>
      setDrop((d) => ({ ...d, [key]: value }));
  // By key, not position: an upload that finishes after products were moved still lands on its own.
  const setProduct = (key: string, change: Partial<ProductFormValues>) =>
    setProducts((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));
  // Uploads under way: saving meanwhile would save without the photo being sent.
  const [uploading, setUploading] = useState(0);
  const onBusy = (delta: number) => setUploading((n) => n + delta);
  const moveProduct = (from: number, to: number) =>
    setProducts((list) => {
      const next = [...list];
      const [item] = next.splice(from, 1);
      if (item) next.splice(to, 0, item);
      return next;
    });
  const err = (key: string) => errors?.fields[key];

  return (
    <Form method="post" noValidate className="mt-6 space-y-8">
      <input type="hidden" name="id" value={drop.id} />
      <input type="hidden" name="version" value={drop.version} />
      <p
        ref={alertRef}
        tabIndex={-1}
        role={errors ? "alert" : "status"}
        className={
          errors
            ? "rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800"
            : notice
              ? "rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
              : ""
        }
      >
        {errors?.first ?? notice ?? ""}
      </p>

      <fieldset className="space-y-4 rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <legend className="px-1 font-serif text-xl">La colección</legend>
        <Field label="Nombre" name="name" value={drop.name} onChange={set("name")} error={err("name")} />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Inicio (fecha)"
            name="startDate"
            type="date"
            value={drop.startDate}
            onChange={set("startDate")}
            error={err("startDate")}
          />
          <Field
            label="Inicio (hora)"
            name="startTime"
            type="time"
            value={drop.startTime}
            onChange={set("startTime")}
            error={err("startTime")}
          />
          <Field
            label="Fin (fecha)"
            name="endDate"
            type="date"
            value={drop.endDate}
            onChange={set("endDate")}
            error={err("endDate")}
          />
          <Field
            label="Fin (hora)"
            name="endTime"
            type="time"
            value={drop.endTime}
            onChange={set("endTime")}
            error={err("endTime")}
          />
        </div>
        <p className="text-xs text-ink/70">Fechas y horas de la Ciudad de México.</p>
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Máximo por persona"
            name="maxPerOrder"
            inputMode="numeric"
            value={drop.maxPerOrder}
            onChange={set("maxPerOrder")}
            error={err("maxPerOrder")}
            hint="Piezas de esta colección por pedido. Vacío: sin límite."
          />
          <Field
            label="Apartado (minutos)"
            name="holdMinutes"
            inputMode="numeric"
            value={drop.holdMinutes}
            onChange={set("holdMinutes")}
            error={err("holdMinutes")}
            hint="Cuánto se guardan las piezas mientras se paga: de 10 a 30."
          />
        </div>
        <Field
          label="Descripción corta"
          name="smallDescription"
          value={drop.smallDescription}
          onChange={set("smallDescription")}
          error={err("smallDescription")}
          multiline
        />
        <Field
          label="Descripción completa"
          name="fullDescription"
          value={drop.fullDescription}
          onChange={set("fullDescription")}
          error={err("fullDescription")}
          multiline
        />
        {mode === "edit" && (
          <Select
            label="Estado"
            name="status"
            value={drop.status}
            onChange={set("status")}
            options={STATUS_OPTIONS}
            error={err("status")}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <MediaSlot
            onBusy={onBusy}
            dropId={drop.id}
            kind="image"
            name="imageId"
            altName="imageAlt"
            defaultAlt={drop.name}
            label="Imagen de la colección"
            value={drop.image}
            onChange={set("image")}
            error={err("imageId")}
          />
          <MediaSlot
            onBusy={onBusy}
            dropId={drop.id}
            kind="video"
            name="videoId"
            label="Video de la colección (MP4 o WebM)"
            value={drop.video}
            onChange={set("video")}
            error={err("videoId")}
          />
        </div>
      </fieldset>

      <section aria-labelledby="products-title" className="space-y-4">
        <h2 id="products-title" className="font-serif text-2xl">
          Productos
        </h2>
        {products.length === 0 && <p className="text-sm text-ink/75">Todavía no hay productos.</p>}
        {products.map((p, i) => {
          const n = i + 1;
          const at = (key: string) => `products[${i}].${key}`;
          const perr = (key: string) => err(`products.${i}.${key}`);
          return (
            <fieldset key={p.key} className="space-y-4 rounded-xl bg-white p-4 shadow-sm sm:p-6">
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
                onChange={(v) => setProduct(p.key, { name: v })}
                error={perr("name")}
              />
              <div className="grid grid-cols-2 gap-3">
                <Field
                  label="Precio (MXN)"
                  name={at("price")}
                  inputMode="decimal"
                  value={p.price}
                  onChange={(v) => setProduct(p.key, { price: v })}
                  error={perr("price")}
                />
                <Field
                  label="Stock (piezas)"
                  name={at("stock")}
                  inputMode="numeric"
                  value={p.stock}
                  onChange={(v) => setProduct(p.key, { stock: v })}
                  error={perr("stock")}
                />
                <Select
                  label="Categoría"
                  name={at("categoria")}
                  value={p.categoria}
                  onChange={(v) => setProduct(p.key, { categoria: v })}
                  options={CATEGORIAS.map((c) => ({ value: c, label: c }))}
                  error={perr("categoria")}
                />
                <Select
                  label="Material"
                  name={at("material")}
                  value={p.material}
                  onChange={(v) => setProduct(p.key, { material: v })}
                  options={MATERIALES.map((m) => ({ value: m, label: m }))}
                  error={perr("material")}
                />
              </div>
              {p.held > 0 && (
                <p className="text-sm text-ink/75">
                  {p.held === 1 ? "1 pieza apartada" : `${p.held} piezas apartadas`} en pagos que aún no
                  terminan: no cuentan en el stock y vuelven si el pago no se completa.
                </p>
              )}
              <Field
                label="Descripción"
                name={at("description")}
                value={p.description}
                onChange={(v) => setProduct(p.key, { description: v })}
                error={perr("description")}
                multiline
              />
              <MediaSlot
                onBusy={onBusy}
                dropId={drop.id}
                kind="image"
                name={at("imageId")}
                altName={at("imageAlt")}
                defaultAlt={p.name}
                label={`Imagen principal del producto ${n}`}
                value={p.image}
                onChange={(m) => setProduct(p.key, { image: m })}
                error={perr("imageId")}
              />
              <ExtraImages
                onBusy={onBusy}
                dropId={drop.id}
                name={at("extraImageIds")}
                altName={at("extraImageAlts")}
                defaultAlt={p.name}
                label={`Imágenes extra del producto ${n}`}
                values={p.extras}
                onChange={(extras) => setProduct(p.key, { extras })}
                max={MAX_EXTRA_IMAGES}
              />
              <div className="flex flex-wrap gap-2 border-t border-sand pt-4">
                <button
                  type="button"
                  disabled={i === 0}
                  onClick={() => moveProduct(i, i - 1)}
                  className="min-h-11 rounded-full border border-ink px-4 text-sm disabled:opacity-30"
                >
                  Subir producto {n}
                </button>
                <button
                  type="button"
                  disabled={i === products.length - 1}
                  onClick={() => moveProduct(i, i + 1)}
                  className="min-h-11 rounded-full border border-ink px-4 text-sm disabled:opacity-30"
                >
                  Bajar producto {n}
                </button>
                <button
                  type="button"
                  onClick={() => setProducts((list) => list.filter((_, j) => j !== i))}
                  className="min-h-11 rounded-full border border-red-800 px-4 text-sm text-red-800"
                >
                  Quitar producto {n}
                </button>
              </div>
            </fieldset>
          );
        })}
        {products.length < MAX_PRODUCTS && (
          <button
            type="button"
            onClick={() => setProducts((list) => [...list, { ...emptyProduct(), key: newKey() }])}
            className="min-h-11 rounded-full border border-ink px-5 text-sm"
          >
            Agregar producto
          </button>
        )}
      </section>

      <button
        type="submit"
        disabled={busy || uploading > 0}
        className="min-h-11 rounded-full bg-ink px-6 font-medium text-cream disabled:opacity-60"
      >
        {busy ? "Guardando..." : mode === "create" ? "Crear colección" : "Guardar cambios"}
      </button>
      {uploading > 0 && (
        <p role="status" className="text-sm text-ink/75">
          Espera a que terminen de subir las fotos.
        </p>
      )}
    </Form>
  );
}
