import { useEffect, useId, useRef, useState } from "react";
import { LENGTHS, MEASURE_LENGTH_STEPS, MEASURE_RING_STEPS, RING_SIZES } from "~/catalogue/size-guide";

/** 'Guía de tallas' (or 'Guía de largos'): a link-like button that opens the guide in a dialog. */
export function SizeGuide({ option }: { option: "Talla" | "Largo" }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const title = option === "Talla" ? "Guía de tallas" : "Guía de largos";
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="min-h-8 text-sm underline underline-offset-4 sm:min-h-11"
        aria-haspopup="dialog"
      >
        {title}
      </button>
      {open && (
        <dialog
          ref={ref}
          aria-labelledby={titleId}
          onClose={() => setOpen(false)}
          className="m-auto max-h-[90dvh] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-xl bg-cream p-5 text-ink shadow-xl backdrop:bg-black/50"
        >
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="font-serif text-2xl">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              className="grid size-11 place-items-center rounded-full text-2xl"
              aria-label="Cerrar la guía"
            >
              ×
            </button>
          </div>
          {option === "Talla" ? <RingGuide /> : <LengthGuide />}
        </dialog>
      )}
    </>
  );
}

function RingGuide() {
  return (
    <>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Tallas de anillo con su diámetro y circunferencia interiores</caption>
        <thead>
          <tr className="border-b border-ink/20 text-left">
            <th scope="col" className="py-1.5">
              Talla
            </th>
            <th scope="col" className="py-1.5">
              Diámetro interior
            </th>
            <th scope="col" className="py-1.5">
              Circunferencia
            </th>
          </tr>
        </thead>
        <tbody>
          {RING_SIZES.map((row) => (
            <tr key={row.size} className="border-b border-sand">
              <th scope="row" className="py-1 text-left font-medium">
                {row.size}
              </th>
              <td className="py-1">{row.diameterMm} mm</td>
              <td className="py-1">{row.circumferenceMm} mm</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Steps title="Cómo medir tu talla en casa" steps={MEASURE_RING_STEPS} />
    </>
  );
}

function LengthGuide() {
  return (
    <>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Largos de collar y pulsera, y dónde caen</caption>
        <thead>
          <tr className="border-b border-ink/20 text-left">
            <th scope="col" className="py-1.5">
              Largo
            </th>
            <th scope="col" className="py-1.5">
              Dónde cae
            </th>
          </tr>
        </thead>
        <tbody>
          {LENGTHS.map((row) => (
            <tr key={row.length} className="border-b border-sand">
              <th scope="row" className="py-1 text-left font-medium">
                {row.length}
              </th>
              <td className="py-1">{row.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Steps title="Cómo elegir el largo" steps={MEASURE_LENGTH_STEPS} />
    </>
  );
}

function Steps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <>
      <h3 className="mt-5 font-medium">{title}</h3>
      <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm text-ink/85">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </>
  );
}
