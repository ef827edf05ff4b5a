import type { DropFormValues } from "~/drops-desk/form-values";
import { Field, Select } from "./form-fields";
import { MediaSlot } from "./media-picker";

const STATUS_OPTIONS = [
  { value: "proximamente", label: "Próximamente" },
  { value: "activa", label: "Activa" },
  { value: "archivada", label: "Archivada" },
];

/** The drop's own fields (name, dates, limits, descriptions, status, image and video). */
/** The opening's rules (decision 27), in the form's words. */
const OPENING_FIELDS = [
  {
    name: "lotterySeconds",
    label: "Sorteo al abrir (segundos)",
    hint: "Quienes piden pagar en esos segundos entran en un orden al azar, no por quién llegó antes.",
  },
  {
    name: "openingMinutes",
    label: "Duración de la apertura (minutos)",
    hint: "Mientras dura, todos hacen fila y rigen las dos reglas siguientes.",
  },
  {
    name: "openingHoldMinutes",
    label: "Apartado en la apertura (minutos)",
    hint: "Más corto que el normal: una pieza sin pagar vuelve pronto a la fila.",
  },
  {
    name: "openingHoldsPerAddress",
    label: "Piezas por conexión en la apertura",
    hint: "Cuántas piezas pueden apartar o comprar quienes comparten una conexión a internet.",
  },
  {
    name: "cardOnlyHours",
    label: "Solo tarjeta (horas desde el inicio)",
    hint: "Sin OXXO ni transferencia en esas horas ni durante la apertura: una ficha de pago no aparta una pieza por días el día de la apertura. 0 para ofrecerlos al terminar la apertura.",
  },
] as const;

export function DropFields({
  drop,
  mode,
  onChange,
  err,
  onBusy,
}: {
  drop: DropFormValues;
  mode: "create" | "edit";
  onChange: (change: Partial<DropFormValues>) => void;
  err: (key: string) => string | undefined;
  /** Counts uploads under way (+1 when one starts, -1 when it ends). */
  onBusy: (delta: number) => void;
}) {
  const set =
    <K extends keyof DropFormValues>(key: K) =>
    (value: DropFormValues[K]) =>
      onChange({ [key]: value } as Partial<DropFormValues>);
  return (
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
      <fieldset className="grid gap-3 rounded border border-sand p-3">
        <legend className="px-1 text-sm font-medium">Apertura</legend>
        <p className="text-xs text-ink/70">
          Reglas de los primeros momentos de la colección, cuando mucha gente pide las mismas piezas a la vez.
        </p>
        <div className="grid grid-cols-2 gap-3">
          {OPENING_FIELDS.map((f) => (
            <Field
              key={f.name}
              label={f.label}
              name={f.name}
              inputMode="numeric"
              value={drop[f.name]}
              onChange={set(f.name)}
              error={err(f.name)}
              hint={f.hint}
            />
          ))}
        </div>
      </fieldset>
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
  );
}
