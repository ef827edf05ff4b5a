import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { MAX_PRODUCTS } from "~/drops-desk/drop-input";
import { type DropFormValues, emptyProduct, type ProductFormValues } from "~/drops-desk/form-values";
import { DropFields } from "./drop-fields";
import { ProductFields } from "./product-fields";

export interface DropFormErrors {
  fields: Record<string, string>;
  first: string;
}

/** Keys for products added on the page (React needs a stable key; ids come only after saving). */
let nextKey = 0;
const newKey = () => `nuevo-${++nextKey}`;

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
  // A refusal, and a save too: the form is rebuilt after a save, so its button's focus is gone.
  useEffect(() => {
    if (errors || notice) alertRef.current?.focus();
  }, [errors, notice]);
  // By key, not position: an upload that finishes after products were moved still lands on its own.
  const setProduct = (key: string, change: Partial<ProductFormValues>) =>
    setProducts((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));
  // Uploads under way: saving meanwhile would save without the photo being sent.
  const [uploading, setUploading] = useState(0);
  const onBusy = (delta: number) => setUploading((n) => n + delta);
  // The refusal's field errors name products by their place ('Producto 2'): once the list is
  // reordered or shortened they would sit under the wrong product, so they go until the next save.
  const [placesChanged, setPlacesChanged] = useState<DropFormErrors | undefined>(undefined);
  const moveProduct = (from: number, to: number) => {
    setPlacesChanged(errors);
    setProducts((list) => {
      const next = [...list];
      const [item] = next.splice(from, 1);
      if (item) next.splice(to, 0, item);
      return next;
    });
  };
  const err = (key: string) =>
    placesChanged === errors && key.startsWith("products.") ? undefined : errors?.fields[key];

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

      <DropFields
        drop={drop}
        mode={mode}
        onChange={(change) => setDrop((d) => ({ ...d, ...change }))}
        err={err}
        onBusy={onBusy}
      />

      <section aria-labelledby="products-title" className="space-y-4">
        <h2 id="products-title" className="font-serif text-2xl">
          Productos
        </h2>
        {products.length === 0 && <p className="text-sm text-ink/75">Todavía no hay productos.</p>}
        {products.map((p, i) => (
          <ProductFields
            key={p.key}
            product={p}
            index={i}
            count={products.length}
            dropId={drop.id}
            onChange={(change) => setProduct(p.key, change)}
            onMove={(to) => moveProduct(i, to)}
            onRemove={() => {
              setPlacesChanged(errors);
              setProducts((list) => list.filter((_, j) => j !== i));
            }}
            err={err}
            onBusy={onBusy}
          />
        ))}
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
